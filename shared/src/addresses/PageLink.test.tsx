import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SiteEnvironmentContext } from '../environment';
import { radioSettings } from '../config/radio';
import { declaredPages } from '../testing/pages';
import type { PageRef } from '../pages';
import { PageLink } from './PageLink';
import { PAGES } from './paths';

function renderWith(pages: readonly PageRef[]) {
  return render(
    <MemoryRouter>
      <SiteEnvironmentContext value={{ radio: radioSettings(), pages }}>
        <PageLink page={PAGES.episode} params={{ slug: 'axonberg-2' }} search={{ t: '1:00' }}>
          Synapses #10
        </PageLink>
      </SiteEnvironmentContext>
    </MemoryRouter>,
  );
}

describe('a link to a page of the site', () => {
  it('leads where the page table puts the page today', () => {
    const renamed = declaredPages().map((page) =>
      page.module === 'EpisodePage' ? { ...page, path: 'episodes/:slug' } : page,
    );
    renderWith(renamed);
    expect(screen.getByRole('link', { name: 'Synapses #10' })).toHaveAttribute('href', '/episodes/axonberg-2?t=1%3A00');
  });

  it('is its text alone while the table has no such page (its remote is down)', () => {
    renderWith(declaredPages().filter((page) => page.remote !== 'radio'));
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('Synapses #10')).toBeInTheDocument();
  });
});
