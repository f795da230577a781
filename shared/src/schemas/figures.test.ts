import * as v from 'valibot';
import { audienceFiguresAnswer, beaconSchema, nowPlayingAnswer } from './answers';

// The audience figures' shapes (docs/figures.md, « For the parts »): the beacon's strict body, the
// editor's answer where a figure is 5 or more or 'few', and the channel's listeners read defensively.

describe('the figures’ shapes', () => {
  it('take the three beacons and nothing else', () => {
    expect(v.safeParse(beaconSchema, { kind: 'live' }).success).toBe(true);
    expect(v.safeParse(beaconSchema, { kind: 'replay', episode: 'axonberg-7', second: 125, embed: true }).success).toBe(
      true,
    );
    expect(v.safeParse(beaconSchema, { kind: 'progress', episode: 'axonberg-7', percent: 50 }).success).toBe(true);
    for (const hostile of [
      { kind: 'progress', episode: 'axonberg-7', percent: 60 },
      { kind: 'replay', episode: '../etc', second: 0 },
      { kind: 'replay', episode: 'axonberg-7', second: 1.5 },
      { kind: 'live', visitor: 'id-123' },
      { kind: 'pageview' },
    ]) {
      expect(v.safeParse(beaconSchema, hostile).success).toBe(false);
    }
  });

  it('refuse an audience answer holding a figure under 5', () => {
    const answer = { residence: 'axonberg', at: '2026-11-25T19:00:00.000Z', slots: [], episodes: [], moments: [] };
    expect(
      v.safeParse(audienceFiguresAnswer, { ...answer, trend: [{ week: '2026-11-23', peak: 'few', plays: 12 }] })
        .success,
    ).toBe(true);
    expect(
      v.safeParse(audienceFiguresAnswer, { ...answer, trend: [{ week: '2026-11-23', peak: 3, plays: 12 }] }).success,
    ).toBe(false);
  });

  it('read the live’s listeners from 5 up, and drop any other', () => {
    const playing = { artist: 'Axonberg', title: 'Synapse 7' };
    expect(v.parse(nowPlayingAnswer, { ...playing, listeners: 23 })).toEqual({ ...playing, listeners: 23 });
    for (const listeners of [3, 2.5, '23', -1, 1e9]) {
      expect(v.parse(nowPlayingAnswer, { ...playing, listeners })).toEqual(playing);
    }
  });
});
