import { useEffect } from 'react';
import { startAppListening, useAppStore } from '@collectif/shared';
import { registerBeacons } from './beacons';

/**
 * The audience beacons of this player (beacons.ts), while its bar is open: sound plays only with
 * the bar open, and their code comes with it, not with a page's first visit.
 */
export function FigureBeacons() {
  const store = useAppStore();
  useEffect(() => registerBeacons(startAppListening, store), [store]);
  return null;
}
