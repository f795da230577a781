import { createAudioEngine, type AudioEngine } from './audioEngine';
import { createMediaSessionSync, type SyncMediaSession } from './mediaSession';
import { createSnapshotPublisher, type SnapshotPublisher } from './snapshots';

/**
 * Everything the player keeps outside its store: the engine of the page's audio element, what was
 * last sent to the system media controls, the `player-state` throttle, and whether its listeners
 * are registered. One per player store (connect.ts), so that a test's fresh store gets a fresh one.
 */
export interface PlayerRuntime {
  readonly audio: AudioEngine;
  readonly syncMediaSession: SyncMediaSession;
  readonly snapshots: SnapshotPublisher;
  /** The undo of the listeners' registration while they are registered (listeners.ts). */
  listening: (() => void) | null;
}

export function createPlayerRuntime(): PlayerRuntime {
  return {
    audio: createAudioEngine(),
    syncMediaSession: createMediaSessionSync(),
    snapshots: createSnapshotPublisher(),
    listening: null,
  };
}
