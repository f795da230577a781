import { PLAYED_ARTIST_SLUG, PLAYED_ARTIST_SLUG_MAX } from './schemas/answers';
import { isPlayedArtistSlug, parseStartTime, startTimeParam } from './episodeAddress';

describe('?t=, the start time', () => {
  it.each([
    ['3750', 3750],
    ['1h02m30s', 3750],
    ['62m', 3720],
    ['45s', 45],
    ['1:02:30', 3750],
    ['12:34', 754],
    [' 90 ', 90],
  ])('reads %s as %d seconds', (text, seconds) => {
    expect(parseStartTime(text, 7200)).toBe(seconds);
  });

  it.each([null, '', 'abc', '-5', '1h2x', '<script>', '9'.repeat(30), '1e5', '0x10', 'h'])('ignores %p', (text) => {
    expect(parseStartTime(text, 7200)).toBeNull();
  });

  it('ignores a start at or past the end of the episode, and allows any start when the duration is unknown', () => {
    expect(parseStartTime('7200', 7200)).toBeNull();
    expect(parseStartTime('3h', 7200)).toBeNull();
    expect(parseStartTime('3h', 0)).toBe(10800);
  });

  it('is written back in the form a share link uses', () => {
    expect(startTimeParam(3750)).toBe('1h02m30s');
    expect(startTimeParam(754.9)).toBe('12m34s');
    expect(startTimeParam(45)).toBe('45s');
    for (const seconds of [0, 59, 60, 3599, 3600, 86_399]) {
      expect(parseStartTime(startTimeParam(seconds))).toBe(seconds);
    }
  });
});

describe("a played artist's address", () => {
  it('is what the API makes of a name, and nothing else', () => {
    const long = 'a'.repeat(PLAYED_ARTIST_SLUG_MAX);
    for (const slug of ['basic-channel', 'dj-2', 'a', long]) {
      expect([slug, isPlayedArtistSlug(slug)]).toEqual([slug, true]);
      expect(PLAYED_ARTIST_SLUG.test(slug)).toBe(true);
    }
    for (const text of ['', 'Basic-Channel', '-dub', 'dub-', 'dub--club', 'dub_club', '../admin', 'é', `${long}a`]) {
      expect([text, isPlayedArtistSlug(text)]).toEqual([text, false]);
    }
  });
});
