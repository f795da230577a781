import { makeStore, startAppListening, type Beacon } from '@collectif/shared';
import { audioPlaying, liveRequested } from '../player/playerSlice';
import { countPlaysAsEmbed, registerBeacons } from './beacons';

// The partners' player (embed/mount.tsx) counts its plays apart (docs/figures.md): each beacon says so.
it('marks every beacon of the partners’ player as the embed’s', () => {
  countPlaysAsEmbed();
  const store = makeStore();
  const sent: Beacon[] = [];
  const stop = registerBeacons(startAppListening, store, (beacon) => sent.push(beacon));
  store.dispatch(liveRequested());
  store.dispatch(audioPlaying());
  stop();
  expect(sent).toEqual([{ kind: 'live', embed: true }]);
});
