import { useEffect } from 'react';
import { useAppStore, type RemoteContract } from '@collectif/shared';
import { connectPlayer } from '../player/connect';
import { PlayerView } from '../ui/PlayerView';

/**
 * The persistent live/replay player. The shell mounts it once, outside the routed area; the audio
 * element it drives belongs to the page, not to this component (see player/audioEngine.ts).
 */
function Player() {
  const store = useAppStore();
  useEffect(() => connectPlayer(store), [store]);
  return <PlayerView />;
}

export default Player satisfies RemoteContract['player']['Player'];
