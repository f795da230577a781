import { XMLParser } from 'fast-xml-parser';
import { ensureOk, fetchUpstream, jsonBody, type UpstreamLimits } from '../upstream/fetch';

// Icecast's admin statistics are read by a real XML parser (as the feeds are), never by patterns: a
// comment, a CDATA section or attributes in another order are XML, and mean what XML says.
const statsParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  isArray: (name, jpath) => jpath === 'icestats.source' && name === 'source',
});

/** Icecast's mounts and their listeners as its admin statistics say them (`/admin/stats`, XML). */
function fromAdminStats(text: string): { listenurl: string; listeners: number }[] {
  let document: unknown;
  try {
    document = statsParser.parse(text);
  } catch {
    return [];
  }
  const stats =
    typeof document === 'object' && document !== null ? (document as { icestats?: unknown }).icestats : null;
  const raw = typeof stats === 'object' && stats !== null ? (stats as { source?: unknown }).source : undefined;
  return (Array.isArray(raw) ? raw.slice(0, 100) : []).flatMap((source: unknown) => {
    if (typeof source !== 'object' || source === null) return [];
    const { '@_mount': mount, listeners } = source as Record<string, unknown>;
    if (typeof mount !== 'string' || !/^\/[^\s"<>]{0,199}$/.test(mount)) return [];
    if (typeof listeners !== 'string' || !/^\d{1,9}$/.test(listeners.trim())) return [];
    return [{ listenurl: `http://icecast.invalid${mount}`, listeners: Number(listeners.trim()) }];
  });
}

/**
 * Icecast's statistics (docs/figures.md, « What is counted »): its public `/status-json.xsl`, or its
 * admin's `/admin/stats` (XML; Debian's Icecast 2.4.4 writes broken JSON once a source is up). The
 * listeners of the radio's mounts (the renditions' paths; every mount when none of them is there),
 * less the timeline's recorder, which listens to each rendition it records and counts for nobody.
 */
export function mapIcecastListeners(
  body: unknown,
  { mounts, recorded }: { mounts: readonly string[]; recorded: boolean },
): number | undefined {
  let sources: unknown[];
  if (typeof body === 'string') sources = fromAdminStats(body);
  else {
    const stats = typeof body === 'object' && body !== null ? (body as { icestats?: unknown }).icestats : undefined;
    const raw = typeof stats === 'object' && stats !== null ? (stats as { source?: unknown }).source : undefined;
    sources = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).slice(0, 100);
  }
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
  config: { url: string; adminPassword: string | null },
  limits: UpstreamLimits,
  options: { mounts: readonly string[]; recorded: boolean },
): () => Promise<number | undefined> {
  const headers: Record<string, string> =
    config.adminPassword === null
      ? {}
      : { Authorization: `Basic ${Buffer.from(`admin:${config.adminPassword}`).toString('base64')}` };
  return async () => {
    // Named as the radio's server in errors, as AzuraCast is: both are « le serveur de la radio ».
    const answer = ensureOk('azuracast', await fetchUpstream('azuracast', { url: config.url, headers }, limits));
    const text = answer.body.toString('utf8');
    return mapIcecastListeners(text.trimStart().startsWith('<') ? text : jsonBody('azuracast', answer), options);
  };
}
