import type { Rendition } from '@collectif/shared';
import { levelOf, positionIn, variantUrl } from './shift';

const at = (time: string) => Date.parse(`2026-11-25T${time}Z`);
const normale: Rendition = { id: 'normale', label: 'Normale', url: '/api/demo/live.mp3', bitrate: 128, codec: 'mp3' };
const econome: Rendition = { id: 'econome', label: 'Économe', url: '/e.mp3', bitrate: 48, codec: 'mp3' };

describe('the variant of a rendition (docs/player.md, « Quality »)', () => {
  it('is `<id>/index.m3u8` beside the multivariant playlist', () => {
    expect(variantUrl('https://radio.example.org/direct/live.m3u8', 'econome')).toBe(
      'https://radio.example.org/direct/econome/index.m3u8',
    );
  });

  it('is found among hls.js’s levels by its address, else its name, else the nearest bitrate', () => {
    const levels = [
      { url: ['https://radio.example.org/direct/normale/index.m3u8'], name: 'Normale', bitrate: 128_000 },
      { url: ['https://radio.example.org/direct/econome/index.m3u8?x=1'], name: 'Économe', bitrate: 48_000 },
    ];
    expect(levelOf(levels, econome)).toBe(1);
    expect(levelOf(levels, normale)).toBe(0);
    const unnamed = levels.map((level, index) => ({ ...level, url: [`/v${String(index)}.m3u8`] }));
    expect(levelOf(unnamed, econome)).toBe(1);
    const anonymous = unnamed.map((level) => ({ ...level, name: '' }));
    expect(levelOf(anonymous, { ...econome, bitrate: 56 })).toBe(1);
    expect(levelOf(anonymous, { ...normale, bitrate: 160 })).toBe(0);
  });
});

describe('where hls.js plays an instant', () => {
  // Four hours of 10 s segments from 15:30, as hls.js lays them in the element's time.
  const details = {
    targetduration: 10,
    edge: 14_400,
    fragments: Array.from({ length: 1440 }, (_, index) => ({
      start: index * 10,
      duration: 10,
      programDateTime: at('15:30:00') + index * 10_000,
    })),
  } as unknown as Parameters<typeof positionIn>[0];

  it('is its position in the playlist', () => {
    expect(positionIn(details, at('19:00:00'))).toBe(12_600);
  });

  it('from one segment after the start: the oldest may be gone when asked for', () => {
    expect(positionIn(details, at('15:30:00'))).toBe(10);
    expect(positionIn(details, at('12:00:00'))).toBe(10);
  });

  it('no nearer the end than three segments, as hls.js plays a live playlist', () => {
    expect(positionIn(details, at('19:29:55'))).toBe(14_370);
  });
});
