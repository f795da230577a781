import type { Episode, ScheduleEvent } from '@collectif/shared';
import { replayOf, replayRequest } from './replay';

const show = (id: string, start: string, residence: string | null = 'velours'): ScheduleEvent => ({
  id,
  title: 'Velours · Club',
  start,
  end: new Date(Date.parse(start) + 2 * 3600_000).toISOString(),
  allDay: false,
  residence,
});

const episode = (slug: string, pubDate: string | null, residences = ['velours']): Episode => ({
  slug,
  pubDate,
  residences,
  styles: [],
  link: `https://soundcloud.example/${slug}`,
  url: `/api/demo/replays/${slug}.mp3`,
  duration: 7200,
  artist: 'Velours',
  show: `Club ${slug}`,
  cover: '/assets/images/velours.webp',
  trackUrn: `soundcloud:tracks:${slug.length}`,
});

const tonight = show('ce-soir', '2026-11-25T19:00:00.000Z');
const nextWeek = show('semaine-prochaine', '2026-12-02T19:00:00.000Z');

describe('the replay of a show (docs/player.md, « A show with its replay »)', () => {
  it('is its residence’s episode published after it started, the first of those', () => {
    const published = episode('club-12', '2026-11-25T19:05:00.000Z');
    const later = episode('club-13', '2026-11-26T10:00:00.000Z');
    expect(replayOf(tonight, [later, published, episode('club-11', '2026-11-18T21:00:00.000Z')], [tonight])).toBe(
      published,
    );
  });

  it('is none before it is published, for another residence, or without a residence', () => {
    expect(replayOf(tonight, [episode('club-11', '2026-11-18T21:00:00.000Z')], [tonight])).toBeNull();
    expect(replayOf(tonight, [episode('autre', '2026-11-25T21:00:00.000Z', ['axonberg'])], [tonight])).toBeNull();
    expect(replayOf(tonight, [episode('sans-date', null)], [tonight])).toBeNull();
    const unnamed = show('sans-residence', '2026-11-25T19:00:00.000Z', null);
    expect(replayOf(unnamed, [episode('club-12', '2026-11-25T21:00:00.000Z')], [unnamed])).toBeNull();
  });

  it('is not an episode published after the residence’s next show, nor long after', () => {
    expect(replayOf(tonight, [episode('club-13', '2026-12-02T22:00:00.000Z')], [tonight, nextWeek])).toBeNull();
    expect(replayOf(tonight, [episode('club-13', '2026-12-24T22:00:00.000Z')], [tonight])).toBeNull();
  });

  it('plays from the moment heard into the show, as its page’s ?t= would', () => {
    const published = episode('club-12', '2026-11-25T19:05:00.000Z');
    expect(replayRequest(published, tonight, Date.parse('2026-11-25T19:29:50.500Z'))).toEqual({
      trackUrn: published.trackUrn,
      url: published.url,
      duration: 7200,
      artist: 'Velours',
      show: 'Club club-12',
      cover: '/assets/images/velours.webp',
      slug: 'club-12',
      start: 1790,
    });
    // Before the show or past the episode's end: from its start.
    expect(replayRequest(published, tonight, Date.parse('2026-11-25T18:59:00.000Z')).start).toBeUndefined();
    expect(replayRequest(published, tonight, Date.parse('2026-11-25T21:30:00.000Z')).start).toBeUndefined();
  });
});
