import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { useAppStore, type RemoteContract } from '@collectif/shared';
import { useFollowStored } from '@collectif/shared/follow/stored';
import { queueOffered } from '../player/config';
import { connectPlayer } from '../player/connect';
import { useQueueWanted } from '../queue/wanted';
import { PlayerView } from '../ui/PlayerView';

/**
 * What says a followed residence going on air (docs/follow.md): its own chunk, loaded only when this
 * browser follows one. A chunk that cannot be had leaves the player as it is, saying nothing.
 */
const FollowAnnouncer = lazy((): Promise<{ default: ComponentType }> =>
  import(/* webpackChunkName: "suivi" */ '../follow/FollowAnnouncer').catch(() => ({ default: () => null })),
);

/**
 * The queue (docs/player.md, « The queue »): its code, when this browser keeps one or a page asks to
 * add to it. A chunk that cannot be had leaves the player as it is.
 */
const QueueRoot = lazy((): Promise<{ default: ComponentType }> =>
  import(/* webpackChunkName: "file" */ '../queue/QueueRoot').catch(() => ({ default: () => null })),
);

/**
 * The persistent live/replay player. The shell mounts it once, outside the routed area; the audio
 * element it drives belongs to the page, not to this component (see player/audioEngine.ts).
 */
function Player() {
  const store = useAppStore();
  useEffect(() => connectPlayer(store), [store]);
  // None on the server and while the page hydrates: the server's HTML is the same for every visitor.
  const following = useFollowStored();
  const queue = useQueueWanted(queueOffered());
  return (
    <>
      {queue ? (
        <Suspense fallback={null}>
          <QueueRoot />
        </Suspense>
      ) : null}
      {following ? (
        <Suspense fallback={null}>
          <FollowAnnouncer />
        </Suspense>
      ) : null}
      <PlayerView />
    </>
  );
}

export default Player satisfies RemoteContract['player']['Player'];
