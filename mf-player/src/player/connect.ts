import { emit, on, type AppStore, type ReplaySource } from '@collectif/shared';
import { attachAudio } from './audioEngine';
import { registerPlayerListeners } from './listeners';
import { liveRequested, replaySelected, selectSnapshot } from './playerSlice';

/**
 * Checks a `replay-selected` payload. Parts of the site send typed values, but a partner page's
 * script may send anything: the answer is either the source or a French sentence naming the field.
 */
export function parseReplaySource(detail: unknown): ReplaySource | string {
  if (typeof detail !== 'object' || detail === null) return 'un objet est attendu dans « detail »';
  const record = detail as Record<string, unknown>;
  const { url, trackUrn, duration, title, description, cover } = record;
  const hasUrn = typeof trackUrn === 'string' && trackUrn.trim() !== '';
  if (typeof url !== 'string' || (url.trim() === '' && !hasUrn)) return '« url » doit être l’adresse du fichier audio';
  if (trackUrn !== undefined && typeof trackUrn !== 'string') return '« trackUrn » doit être une chaîne';
  if (duration !== undefined && (typeof duration !== 'number' || !(duration >= 0))) {
    return '« duration » doit être un nombre de secondes positif';
  }
  for (const [name, value] of Object.entries({ title, description, cover })) {
    if (value !== undefined && typeof value !== 'string') return `« ${name} » doit être une chaîne`;
  }
  return {
    ...(hasUrn ? { trackUrn: trackUrn.trim() } : {}),
    url: url.trim(),
    duration: typeof duration === 'number' ? duration : 0,
    title: typeof title === 'string' ? title : '',
    description: typeof description === 'string' ? description : '',
    cover: typeof cover === 'string' ? cover : '',
  };
}

/**
 * Connects the mounted player to its store: audio element events, the page's event bus (the same
 * events a partner page sends as DOM events) and the first public snapshot. Returns the undo.
 */
export function connectPlayer(store: AppStore): () => void {
  registerPlayerListeners();
  const detachAudio = attachAudio(store.dispatch);
  const offReplay = on('replay-selected', (detail) => {
    const source = parseReplaySource(detail);
    if (typeof source === 'string') {
      console.error(`Lecteur : épisode ignoré, ${source}.`);
      return;
    }
    store.dispatch(replaySelected(source));
  });
  const offLive = on('live-selected', () => {
    store.dispatch(liveRequested());
  });
  emit('player-state', selectSnapshot(store.getState()));
  return () => {
    offReplay();
    offLive();
    detachAudio();
  };
}
