import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SiteEnvironmentContext } from '../environment';
import { parseRadioSettings } from '../config/radio';
import { declaredPages } from '../testing/pages';
import type { PageRef } from '../pages';
import { SupportLink } from './SupportLink';

const EXTERNAL = 'https://example.org/soutenir-ailleurs';

function renderWith(support: unknown, options: { pages?: readonly PageRef[]; external?: boolean } = {}) {
  const radio = parseRadioSettings({ support });
  return render(
    <MemoryRouter>
      <SiteEnvironmentContext value={{ radio, pages: options.pages ?? declaredPages() }}>
        <SupportLink search={{ residence: 'axonberg' }} external={options.external ?? true}>
          Soutenir Axonberg
        </SupportLink>
      </SiteEnvironmentContext>
    </MemoryRouter>,
  );
}

describe('« Nous soutenir »', () => {
  it('leads to the site’s page, in the same tab, while HelloAsso takes payments on it', () => {
    renderWith({ page: '/soutenir', external: EXTERNAL });
    const link = screen.getByRole('link', { name: 'Soutenir Axonberg' });
    expect(link).toHaveAttribute('href', '/soutenir?residence=axonberg');
    expect(link).not.toHaveAttribute('target');
  });

  it('leads to the external page in a new tab when an admin turned HelloAsso off', () => {
    renderWith({ page: '', external: EXTERNAL });
    const link = screen.getByRole('link', { name: /Soutenir Axonberg/ });
    expect(link).toHaveAttribute('href', EXTERNAL);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAccessibleName('Soutenir Axonberg (nouvel onglet)');
  });

  it('leads to the external page while the page table lacks the site’s page (its part is down)', () => {
    renderWith(
      { page: '/soutenir', external: EXTERNAL },
      { pages: declaredPages().filter((p) => p.remote !== 'about') },
    );
    expect(screen.getByRole('link', { name: /Soutenir Axonberg/ })).toHaveAttribute('href', EXTERNAL);
  });

  it('reads hostile settings as the external link of the site’s configuration', () => {
    renderWith({ page: 'javascript:alert(1)', external: 'javascript:alert(1)' });
    const link = screen.getByRole('link', { name: /Soutenir Axonberg/ });
    expect(link.getAttribute('href')).toMatch(/^https:\/\//);
  });

  it('is nothing, when asked so, unless the site’s page is there', () => {
    renderWith({ page: '', external: EXTERNAL }, { external: false });
    expect(screen.queryByRole('link')).toBeNull();
  });
});
