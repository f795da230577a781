import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { podcast } from '../testing/fakeApi';
import { PodcastGrid } from './PodcastCard';

describe('PodcastGrid', () => {
  it('fetches the first cover first, the rest of the first row after it, the others when scrolled to', () => {
    const items = Array.from({ length: 6 }, (_, i) => podcast(i + 1));
    renderWithProviders(<PodcastGrid items={items} label="Émissions" eagerCount={4} />);
    const covers = within(screen.getByRole('list', { name: 'Émissions' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('img'));
    expect(covers.map((img) => [img?.getAttribute('loading'), img?.getAttribute('fetchpriority')])).toEqual([
      ['eager', 'high'],
      ['eager', 'low'],
      ['eager', 'low'],
      ['eager', 'low'],
      ['lazy', 'low'],
      ['lazy', 'low'],
    ]);
  });

  it('leaves every cover lazy in a block below the page’s top', () => {
    renderWithProviders(<PodcastGrid items={[podcast(1), podcast(2)]} label="Podcasts" />);
    for (const img of screen.getByRole('list', { name: 'Podcasts' }).querySelectorAll('img')) {
      expect(img).toHaveAttribute('loading', 'lazy');
      // Even one in view: Chromium would raise it to high beside the page's largest paint.
      expect(img).toHaveAttribute('fetchpriority', 'low');
    }
  });
});
