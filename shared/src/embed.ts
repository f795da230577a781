/**
 * The player for partner sites, as a partner writes it (docs/embed.md): what to play, the look and
 * the size, read alike from the `<collectif-player>` attributes, the iframe's query string
 * (`/embed/lecteur?…`), the configurator's choices (`/integrer?…`) and oEmbed's answers. No import
 * of the store or of any library: the partner script reads this before anything else loads.
 */
import { escapeHtml } from './seo/head';

/** What the player plays: the live stream, a residence's latest episodes, or one episode. */
export type EmbedSource = { kind: 'direct' } | { kind: 'residence'; id: string } | { kind: 'episode'; slug: string };

/** The looks: dark (the site's), light, the collective's yellow. */
export const EMBED_THEMES = ['sombre', 'clair', 'jaune'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** The sizes: one line (a bar) or a card with the cover. */
export const EMBED_FORMATS = ['barre', 'carte'] as const;
export type EmbedFormat = (typeof EMBED_FORMATS)[number];

export interface EmbedOptions {
  source: EmbedSource;
  theme: EmbedTheme;
  /** The partner's own accent colour, `#rrggbb` (lower case), or null for the theme's. */
  colour: string | null;
  format: EmbedFormat;
  /**
   * The live's timeline, « Reprendre au début » and the hours the site keeps (docs/embed.md, « The
   * timeline »): off unless the partner asks (`differe`).
   */
  timeline: boolean;
}

export const DEFAULT_EMBED_OPTIONS: EmbedOptions = {
  source: { kind: 'direct' },
  theme: 'sombre',
  colour: null,
  format: 'barre',
  timeline: false,
};

/** The name of the timeline's choice: `differe=1` in an address, the bare attribute on the element. */
export const EMBED_TIMELINE = 'differe';

/** The page made to be framed by any site. */
export const EMBED_FRAME_PATH = '/embed/lecteur';
/** The partner script. */
export const EMBED_SCRIPT_PATH = '/embed/collectif-player.js';

/** The iframe's height in CSS pixels for each size, before it tells its own (postMessage). */
export const EMBED_HEIGHTS: Readonly<Record<EmbedFormat, number>> = { barre: 104, carte: 200 };
/** The height of a residence's latest episodes listed under its card (docs/embed.md). */
export const EMBED_EPISODES_HEIGHT = 180;

/**
 * What the live's timeline row adds to each size once it shows (docs/embed.md, « The timeline »),
 * measured in Chromium from 320 to 1280 px: the bar from 104 to 120 px, the card from 202 to 238
 * at most. Narrower, « Direct » goes under the slider, and the frame needs the height it is told.
 */
export const EMBED_TIMELINE_HEIGHTS: Readonly<Record<EmbedFormat, number>> = { barre: 16, carte: 40 };

/**
 * The iframe's height for `options`, before the player says its own: the size's, for a
 * residence's card its list of latest episodes too, and the timeline's row when it was asked for
 * (whatever the source: a replay's « Direct » leads to it).
 */
export function embedHeight(options: Pick<EmbedOptions, 'source' | 'format'> & { timeline?: boolean }): number {
  const list = options.format === 'carte' && options.source.kind === 'residence' ? EMBED_EPISODES_HEIGHT : 0;
  const timeline = options.timeline === true ? EMBED_TIMELINE_HEIGHTS[options.format] : 0;
  return EMBED_HEIGHTS[options.format] + list + timeline;
}

/** The widest the player is drawn; wider frames centre it. */
export const EMBED_MAX_WIDTH = 640;
/** The narrowest width the player is made for. */
export const EMBED_MIN_WIDTH = 280;

/** `type` of the message the framed player sends its parent: `{ type, height }`. */
export const EMBED_HEIGHT_MESSAGE = 'collectif-player:hauteur';

/** An episode's slug or a residence's id: lower-case words joined by hyphens, at most 120 characters. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,118}[a-z0-9])?$/;
const COLOUR = /^#?([0-9a-fA-F]{6})$/;

/** `#rrggbb` from `rrggbb` or `#RRGGBB`; null for anything else. */
export function readColour(value: string | null | undefined): string | null {
  const match = COLOUR.exec((value ?? '').trim());
  const hex = match?.[1];
  return hex === undefined ? null : `#${hex.toLowerCase()}`;
}

function pick<T extends string>(allowed: readonly T[], value: string | null | undefined, fallback: T): T {
  const text = (value ?? '').trim().toLowerCase();
  return (allowed as readonly string[]).includes(text) ? (text as T) : fallback;
}

/**
 * Whether a switch is asked for: the bare attribute (`''`), or `1`, `oui`, `true` in an address.
 * Anything else (`0`, `non`, a hostile value) is off, the default.
 */
function switchOn(value: string | null | undefined): boolean {
  if (value === null || value === undefined || value.length > 8) return false;
  return ['', '1', 'oui', 'true'].includes(value.trim().toLowerCase());
}

function slugOf(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  return SLUG.test(text) ? text : null;
}

/**
 * The options named by a lookup (query string or element attributes). What is missing or
 * unreadable takes its default, so a hand-written or mangled address still plays something: an
 * episode's slug first, then a residence's id, else the live stream.
 */
export function readEmbedOptions(get: (name: string) => string | null | undefined): EmbedOptions {
  const episode = slugOf(get('episode'));
  const residence = slugOf(get('residence'));
  const source: EmbedSource =
    episode !== null
      ? { kind: 'episode', slug: episode }
      : residence !== null
        ? { kind: 'residence', id: residence }
        : { kind: 'direct' };
  return {
    source,
    theme: pick(EMBED_THEMES, get('theme'), DEFAULT_EMBED_OPTIONS.theme),
    colour: readColour(get('couleur')),
    format: pick(EMBED_FORMATS, get('format'), DEFAULT_EMBED_OPTIONS.format),
    timeline: switchOn(get(EMBED_TIMELINE)),
  };
}

/** The options as name/value pairs, defaults left out, in a stable order. */
export function embedParameters(options: EmbedOptions): [string, string][] {
  const pairs: [string, string][] = [];
  if (options.source.kind === 'episode') pairs.push(['episode', options.source.slug]);
  if (options.source.kind === 'residence') pairs.push(['residence', options.source.id]);
  if (options.theme !== DEFAULT_EMBED_OPTIONS.theme) pairs.push(['theme', options.theme]);
  if (options.colour !== null) pairs.push(['couleur', options.colour.slice(1)]);
  if (options.format !== DEFAULT_EMBED_OPTIONS.format) pairs.push(['format', options.format]);
  if (options.timeline) pairs.push([EMBED_TIMELINE, '1']);
  return pairs;
}

/** `?episode=…&theme=clair`, or '' for the defaults. */
export function embedQuery(options: EmbedOptions): string {
  const query = new URLSearchParams(embedParameters(options)).toString();
  return query === '' ? '' : `?${query}`;
}

/** The iframe's address on the site at `origin`. */
export function embedFrameUrl(origin: string, options: EmbedOptions): string {
  return `${origin}${EMBED_FRAME_PATH}${embedQuery(options)}`;
}

/** What the player is called for screen readers and in the iframe's title. */
export function embedTitle(siteName: string, source: EmbedSource): string {
  switch (source.kind) {
    case 'episode':
      return `Lecteur ${siteName} : un épisode`;
    case 'residence':
      return `Lecteur ${siteName} : une résidence`;
    default:
      return `Lecteur ${siteName} : le direct`;
  }
}

/**
 * The iframe to paste: full width, or `width` when given, the size's height until the player says
 * its own, no border, `autoplay` allowed so that the play button sounds at once. No `style`
 * attribute: a partner's Content-Security-Policy without 'unsafe-inline' refuses it (`frameborder`
 * is an attribute, which no policy refuses).
 */
export function embedFrameSnippet(
  origin: string,
  options: EmbedOptions,
  siteName: string,
  size: { width?: number; height?: number } = {},
): string {
  const height = size.height ?? embedHeight(options);
  const width = size.width === undefined ? '100%' : String(size.width);
  return (
    `<iframe src="${escapeHtml(embedFrameUrl(origin, options))}" ` +
    `title="${escapeHtml(embedTitle(siteName, options.source))}" width="${width}" height="${height}" ` +
    `frameborder="0" allow="autoplay" loading="lazy"></iframe>`
  );
}

/**
 * The `<collectif-player>` element with `apiBase` and the choices as attributes (defaults left
 * out; the colour with its `#`, as an attribute takes it; the timeline a bare attribute).
 */
export function embedElement(apiBase: string, options: EmbedOptions): string {
  const attributes = embedParameters(options)
    .map(([name, value]) =>
      name === EMBED_TIMELINE ? ` ${name}` : ` ${name}="${escapeHtml(name === 'couleur' ? `#${value}` : value)}"`,
    )
    .join('');
  return `<collectif-player api-base="${escapeHtml(apiBase)}"${attributes}></collectif-player>`;
}

/** The script and element to paste. */
export function embedScriptSnippet(origin: string, options: EmbedOptions): string {
  return `<script src="${escapeHtml(origin + EMBED_SCRIPT_PATH)}" defer></script>\n${embedElement(`${origin}/api`, options)}`;
}

/**
 * The Content-Security-Policy directives a partner's site needs, one line each, for the script
 * (it fetches the API, plays the live stream and the replays, whose files and covers may be on
 * other https hosts, and starts hls.js's worker) or for the iframe.
 */
export function embedCspLines(origin: string, streamOrigin: string | null, kind: 'script' | 'iframe'): string[] {
  if (kind === 'iframe') return [`frame-src ${origin};`];
  const stream = streamOrigin === null || streamOrigin === origin ? '' : ` ${streamOrigin}`;
  return [
    `script-src ${origin};`,
    `connect-src ${origin}${stream} https:;`,
    `media-src ${origin}${stream} https: blob:;`,
    `img-src ${origin} https:;`,
    'worker-src blob:;',
  ];
}

/**
 * The script a partner pastes after the iframe (docs/embed.md, « The iframe player »): it gives the
 * frame the height its player announces (`{ type: EMBED_HEIGHT_MESSAGE, height }`), for messages
 * from `origin` only, and to the frame that sent the message (a page may hold several players).
 */
export function embedHeightListenerSnippet(origin: string): string {
  // JSON gives quoted script strings; `<` escaped so that no text can close the script element.
  const quoted = (text: string) => JSON.stringify(text).replace(/</g, '\\u003c');
  return [
    '<script>',
    'window.addEventListener("message", function (event) {',
    `  if (event.origin !== ${quoted(origin)} || !event.data || event.data.type !== ${quoted(EMBED_HEIGHT_MESSAGE)}) return;`,
    '  if (typeof event.data.height !== "number" || !(event.data.height > 0)) return;',
    '  var frames = document.getElementsByTagName("iframe");',
    '  for (var i = 0; i < frames.length; i++) {',
    '    if (frames[i].contentWindow === event.source) frames[i].style.height = event.data.height + "px";',
    '  }',
    '});',
    '</script>',
  ].join('\n');
}
