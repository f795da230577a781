import { instantAt, spanOf, timeAt, type Segment } from './mapping';

// A playlist of 10 s segments from 20:00:00 UTC, then a gap of 2 minutes (the source dropped: a
// discontinuity), then more: hls.js lays the segments end to end in the element's time.
const at = (text: string) => Date.parse(`2026-11-25T${text}Z`);
const segments: Segment[] = [
  { start: 0, duration: 10, programDateTime: at('20:00:00') },
  { start: 10, duration: 10, programDateTime: at('20:00:10') },
  { start: 20, duration: 9.975, programDateTime: at('20:00:20') },
  // After the gap: 20:02:30 plays at the element's 29.975 s.
  { start: 29.975, duration: 10, programDateTime: at('20:02:30') },
  { start: 39.975, duration: 10, programDateTime: at('20:02:40') },
];

describe('the element’s position as the instant it plays', () => {
  it('is the segment’s date and how far into it the position is', () => {
    expect(instantAt(segments, 0)).toBe(at('20:00:00'));
    expect(instantAt(segments, 12.5)).toBe(at('20:00:12.500'));
    expect(instantAt(segments, 34.975)).toBe(at('20:02:35'));
  });

  it('skips the gap: the position after it is dated by the segment after it', () => {
    expect(instantAt(segments, 29.9)).toBe(at('20:00:29.900'));
    expect(instantAt(segments, 30)).toBe(at('20:02:30.025'));
  });

  it('knows no instant outside the segments or without a date', () => {
    expect(instantAt(segments, -1)).toBeNull();
    expect(instantAt(segments, 51)).toBeNull();
    expect(instantAt(segments, Number.NaN)).toBeNull();
    expect(instantAt([{ start: 0, duration: 10, programDateTime: null }], 5)).toBeNull();
    expect(instantAt([], 5)).toBeNull();
  });
});

describe('an instant as the element’s position', () => {
  it('is inverse to the mapping within a segment', () => {
    for (const time of [0, 4.2, 12.5, 25, 31, 45.5]) {
      const instant = instantAt(segments, time);
      expect(instant).not.toBeNull();
      expect(timeAt(segments, instant ?? 0)).toBeCloseTo(time, 6);
    }
  });

  it('in a gap, is the start of the segment after it', () => {
    expect(timeAt(segments, at('20:01:00'))).toBe(29.975);
  });

  it('before the first segment, is its start; past the last, its end', () => {
    expect(timeAt(segments, at('19:00:00'))).toBe(0);
    expect(timeAt(segments, at('21:00:00'))).toBeCloseTo(49.975, 6);
  });

  it('is null when no segment is dated', () => {
    expect(timeAt([{ start: 0, duration: 10, programDateTime: null }], at('20:00:00'))).toBeNull();
    expect(timeAt(segments, Number.NaN)).toBeNull();
  });

  it('reads a window of a thousand segments', () => {
    const long: Segment[] = Array.from({ length: 1440 }, (_, index) => ({
      start: index * 10,
      duration: 10,
      programDateTime: at('16:00:00') + index * 10_000,
    }));
    expect(timeAt(long, at('19:30:05'))).toBe(12_605);
    expect(instantAt(long, 12_605)).toBe(at('19:30:05'));
  });
});

describe('the span of the segments', () => {
  it('is the first one’s date to the last one’s end', () => {
    expect(spanOf(segments)).toEqual({ start: at('20:00:00'), end: at('20:02:50') });
    expect(spanOf([])).toBeNull();
  });
});
