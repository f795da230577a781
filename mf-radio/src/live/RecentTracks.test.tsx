import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import type { PlayedTrack } from '@collectif/shared';
import { RecentTracks } from './RecentTracks';

const history: PlayedTrack[] = [
  { artist: 'Onde Courte', title: 'Grandes Ondes', playedAt: '2026-03-04T20:42:00.000Z' },
  { artist: '158cm', title: 'Talons Plats', playedAt: '2026-03-04T20:38:00.000Z' },
  // Summer time in Paris: UTC + 2.
  { artist: 'Iris Kora', title: '', playedAt: '2026-07-01T23:05:00.000Z' },
];

describe('RecentTracks', () => {
  it('lists the tracks, newest first, each « hh:mm · Artiste — Titre » in Paris time', () => {
    render(<RecentTracks history={history} />);
    const section = screen.getByRole('region', { name: 'Titres précédents' });
    expect(within(section).getByRole('heading', { level: 3, name: 'Titres précédents' })).toBeInTheDocument();
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '21:42 · Onde Courte — Grandes Ondes',
      '21:38 · 158cm — Talons Plats',
      '01:05 · Iris Kora',
    ]);
    expect(section.querySelector('ol')).not.toBeNull();
    expect(items[0]?.querySelector('time')).toHaveAttribute('datetime', '2026-03-04T20:42:00.000Z');
  });

  it('writes the same times on the server, whatever its zone (the tests run in UTC)', () => {
    const html = renderToString(<RecentTracks history={history} />);
    expect(html).toContain('<time dateTime="2026-03-04T20:42:00.000Z">21:42</time>');
  });

  it('renders nothing without a history', () => {
    for (const none of [undefined, []]) {
      const { container, unmount } = render(<RecentTracks history={none} />);
      expect(container).toBeEmptyDOMElement();
      unmount();
    }
  });
});
