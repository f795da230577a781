import { ensureOk, fetchUpstream, jsonBody, type UpstreamLimits } from '../api/upstream/fetch';

/**
 * Icecast's statistics (`/status-json.xsl`, docs/figures.md, « What is counted »): the listeners of
 * the radio's mounts (the renditions' paths; every mount when none of them is there), less the
 * timeline's recorder, which listens to each rendition it records and counts for nobody.
 */
export function mapIcecastListeners(
  body: unknown,
  { mounts, recorded }: { mounts: readonly string[]; recorded: boolean },
): number | undefined {
  const stats = typeof body === 'object' && body !== null ? (body as { icestats?: unknown }).icestats : undefined;
  const raw = typeof stats === 'object' && stats !== null ? (stats as { source?: unknown }).source : undefined;
  const sources = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).slice(0, 100);
  const read: { mount: string; listeners: number }[] = [];
  for (const source of sources) {
    if (typeof source !== 'object' || source === null) continue;
    const { listeners, listenurl } = source as { listeners?: unknown; listenurl?: unknown };
    if (typeof listeners !== 'number' || !Number.isInteger(listeners) || listeners < 0 || listeners > 10_000_000)
      continue;
    let mount: string;
    try {
      mount = typeof listenurl === 'string' ? new URL(listenurl).pathname : '';
    } catch {
      mount = '';
    }
    read.push({ mount, listeners });
  }
  if (read.length === 0) return undefined;
  const ours = read.filter((source) => mounts.includes(source.mount));
  const counted = ours.length > 0 ? ours : read;
  const recorder = recorded ? counted.length : 0;
  return Math.max(0, counted.reduce((total, source) => total + source.listeners, 0) - recorder);
}

export function icecastListeners(
  config: { url: string },
  limits: UpstreamLimits,
  options: { mounts: readonly string[]; recorded: boolean },
): () => Promise<number | undefined> {
  return async () =>
    mapIcecastListeners(
      // Named as the radio's server in errors, as AzuraCast is: both are « le serveur de la radio ».
      jsonBody('azuracast', ensureOk('azuracast', await fetchUpstream('azuracast', { url: config.url }, limits))),
      options,
    );
}
