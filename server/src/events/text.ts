import { decodeHTML } from 'entities';

/**
 * The texts of an event as its calendar writes them, made plain (docs/events.md, « How each
 * property is read »): its description (plain text, or HTML turned into text, never kept as
 * markup), its place (LOCATION: the venue, then its address) and its line-up (the line « Avec : … »
 * of its description, each name matched to a residence). Pure functions, linear in their input
 * whatever it holds: a hostile description is bounded before it is read.
 */

/** Characters of a description read: HTML is verbose, the text kept is shorter. */
export const DESCRIPTION_READ = 50_000;
/** Characters of a description kept (the rest is cut, « … »). */
export const DESCRIPTION_KEPT = 5000;

/** Control characters but the line break and the tab. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** At most `length` characters, never cutting a character in two; a cut text ends with « … ». */
export function cut(text: string, length: number): string {
  if (text.length <= length) return text;
  let end = length - 1;
  // A surrogate pair's first half is not left alone.
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** One line of text: controls dropped, spaces and line breaks as single spaces, at most `length` characters. */
export function oneLine(text: string, length: number): string {
  return cut(text.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim(), length);
}

/** Lines trimmed, runs of spaces as one, at most one blank line in a row, controls dropped. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, '')
    .replace(/\u00A0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Tags that make a text HTML: what Google's and Outlook's editors write. */
const HTML_TAG =
  /<\/?(?:a|b|big|blockquote|body|br|div|em|font|h[1-6]|head|hr|html|i|img|li|meta|o:p|ol|p|pre|s|small|span|strong|style|script|sub|sup|table|tbody|td|th|title|tr|u|ul|iframe|object|embed|svg)\b[^<>]*>/i;

/** Whether a description is HTML rather than text (it holds one of the tags editors write). */
export function looksLikeHtml(text: string): boolean {
  return HTML_TAG.test(text) || text.includes('<!--');
}

/** Tags whose content is never text. */
const HIDDEN = new Set(['script', 'style', 'head', 'title', 'template', 'iframe', 'object', 'svg', 'noscript']);
/** Tags that begin and end a line. */
const BLOCKS = new Set([
  'address',
  'article',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tr',
  'ul',
]);

/** Google wraps the links of its descriptions in its redirect: `https://www.google.com/url?q=<address>&…`. */
function unwrapped(href: string): string {
  try {
    const url = new URL(href);
    if (/^(www\.)?google\.[a-z.]+$/.test(url.hostname) && url.pathname === '/url') {
      const target = url.searchParams.get('q');
      if (target !== null && /^https?:\/\//i.test(target)) return target;
    }
  } catch {
    // Not an address: said as it is, or not at all (below).
  }
  return href;
}

/** A link's address worth writing beside its text: an http(s) or mailto address. */
function linkAddress(attributes: string): string | null {
  const found = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(attributes);
  const raw = found?.[1] ?? found?.[2] ?? found?.[3];
  if (raw === undefined) return null;
  const href = unwrapped(decodeHTML(raw).trim());
  return /^(https?:\/\/|mailto:)[^\s<>"]+$/i.test(href) ? href : null;
}

/** An address as text compares it: without its scheme, `www.` or final slash. */
const bare = (address: string) =>
  address
    .replace(/^(https?:\/\/|mailto:)/i, '')
    .replace(/^www\./i, '')
    .replace(/\/$/, '')
    .toLowerCase();

/**
 * HTML as plain text: `<br>` a line break, each paragraph, division, heading, list item or row on a
 * line of its own (an item begins with « • »), a link's address written after its text in
 * brackets when the text does not say it (`Billets (https://…)`), every other tag dropped, the
 * content of `<script>`, `<style>` and the like dropped with them, comments dropped, entities read.
 * One pass over the text, whatever it holds.
 */
export function htmlToText(html: string): string {
  let out = '';
  let link: { href: string; from: number } | null = null;
  // Where the next `>` and `-->` are, and the last `<` before that `>`: searched again only once
  // passed, so that the pass stays linear whatever the text holds.
  let nextGt = -2;
  let lastLt = -1;
  let nextCommentEnd = -2;
  const newline = () => {
    if (out !== '' && !out.endsWith('\n')) out += '\n';
  };
  const text = (raw: string) => {
    if (raw !== '') out += decodeHTML(raw.replace(/\s+/g, ' '));
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      text(html.slice(i));
      break;
    }
    text(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      if (nextCommentEnd !== -1 && nextCommentEnd < lt + 4) nextCommentEnd = html.indexOf('-->', lt + 4);
      i = nextCommentEnd === -1 ? html.length : nextCommentEnd + 3;
      continue;
    }
    if (nextGt !== -1 && nextGt <= lt) {
      nextGt = html.indexOf('>', lt + 1);
      lastLt = nextGt === -1 ? -1 : html.lastIndexOf('<', nextGt);
    }
    const name = /^<(\/?)([a-zA-Z][\w:-]*)/.exec(html.slice(lt, lt + 40));
    // A tag runs from its `<` to the next `>`, with no other `<` between.
    if (name === null || nextGt === -1 || lastLt !== lt) {
      // A `<` that opens no tag (« <3 », « a < b ») is text.
      text('<');
      i = lt + 1;
      continue;
    }
    const closing = name[1] === '/';
    const tag = (name[2] ?? '').toLowerCase();
    const attributes = html.slice(lt + name[0].length, nextGt);
    i = nextGt + 1;
    if (!closing && HIDDEN.has(tag)) {
      // Its content up to its end tag (or the end of the text) is not text.
      const end = new RegExp(`</${tag}\\s*>`, 'gi');
      end.lastIndex = i;
      const found = end.exec(html);
      i = found === null ? html.length : found.index + found[0].length;
      continue;
    }
    if (tag === 'br') {
      out += '\n';
    } else if (BLOCKS.has(tag)) {
      newline();
      if (tag === 'li' && !closing) out += '• ';
    } else if (tag === 'a') {
      if (!closing) {
        const href = linkAddress(attributes);
        link = href === null ? null : { href, from: out.length };
      } else if (link !== null) {
        const said = out.slice(link.from).toLowerCase();
        const address = link.href.replace(/^mailto:/i, '');
        if (!said.includes(bare(link.href))) out += said.trim() === '' ? address : ` (${address})`;
        link = null;
      }
    } else if (tag === 'td' || tag === 'th') {
      if (closing) out += ' ';
    }
  }
  return tidy(out);
}

/** Unescapes an iCalendar TEXT value that ical.js left as written (X-ALT-DESC, an unknown property). */
export function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, character: string) =>
    character === 'n' || character === 'N' ? '\n' : character,
  );
}

/**
 * A description as the API gives it: plain text, never HTML. HTML (a description Google's or
 * Outlook's editor wrote) is turned into text; the first DESCRIPTION_READ characters are read, and
 * DESCRIPTION_KEPT kept.
 */
export function plainDescription(value: string): string {
  const read = value.slice(0, DESCRIPTION_READ);
  return cut(looksLikeHtml(read) ? htmlToText(read) : tidy(read), DESCRIPTION_KEPT);
}

/**
 * LOCATION as a place: the venue is what comes before its first comma or line break, the address
 * the rest, its lines joined by commas (« Le Bocal, 8 rue Pharaon, 31000 Toulouse » is « Le Bocal »
 * at « 8 rue Pharaon, 31000 Toulouse »).
 */
export function place(location: string): { venue: string | null; address: string | null } {
  const text = location.replace(/\r\n?/g, '\n').replace(CONTROLS, ' ');
  const split = text.search(/[,\n]/);
  const venue = oneLine(split === -1 ? text : text.slice(0, split), 200);
  const rest =
    split === -1
      ? ''
      : text
          .slice(split + 1)
          .split('\n')
          .map((line) => line.trim().replace(/,$/, '').trim())
          .filter((line) => line !== '')
          .join(', ');
  const address = oneLine(rest, 300);
  return { venue: venue === '' ? null : venue, address: address === '' ? null : address };
}

/** Lower case, no accents, single spaces: how line-up names and residences are compared. */
export const nameKey = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The line that names who plays: « Avec : », « avec: », « Avec - », « Line-up : », « Lineup : »
 * (any case, accents ignored, a bullet or emoji before it allowed), a colon or a dash required:
 * « Avec le soutien de … » is a sentence, not a line-up.
 */
const LINEUP_LINE = /^[^\p{L}\p{N}]*(?:[aàâä]v[eéèêë]c|line[\s-]?up)\s*[:\-–—]\s*(.*)$/iu;
/** What separates the names: commas, « & », « + », « / », « · », and « et » as a word. */
const LINEUP_SEPARATOR = /\s*(?:[,&+/·]|\set\s)\s*/iu;
/** Names read on a line, and characters of a name. */
const MOST_NAMES = 40;
const LONGEST_NAME = 100;

/** The names of the description's first line-up line (docs/events.md, « Line-up »), as written. */
export function lineupNames(description: string): string[] {
  for (const line of description.split('\n')) {
    const found = LINEUP_LINE.exec(line);
    if (found === null) continue;
    return (found[1] ?? '')
      .split(LINEUP_SEPARATOR)
      .map((name) => oneLine(name.replace(/[.;:!?…]+$/u, ''), LONGEST_NAME))
      .filter((name) => name !== '')
      .slice(0, MOST_NAMES);
  }
  return [];
}

export interface LineupResidence {
  id: string;
  artist: string;
}

/**
 * Who plays, each name matched to the residence it is: by its id or its artist's name, accents,
 * case and extra spaces ignored, each name of an artist « A / B » on its own too (the feed's rule,
 * docs/episodes.md « its residences »), and a name's bracketed note left out (« Axonberg (live) »).
 * A name that is no residence is kept with `residence: null`; a residence named twice (« Kalibre /
 * Mona Vex » is two names of one residence) is one entry, its names joined by « / ».
 */
export function matchLineup(
  names: readonly string[],
  residences: readonly LineupResidence[],
): { name: string; residence: string | null }[] {
  const byKey = new Map<string, string>();
  for (const residence of residences) {
    const keys = [residence.id, residence.artist, ...residence.artist.split('/')].map(nameKey);
    for (const key of keys) if (key !== '' && !byKey.has(key)) byKey.set(key, residence.id);
  }
  const lineup: { name: string; residence: string | null; keys: string[] }[] = [];
  for (const name of names) {
    const key = nameKey(name);
    const residence = byKey.get(key) ?? byKey.get(nameKey(name.replace(/\s*\([^()]*\)\s*$/u, ''))) ?? null;
    const same = lineup.find((entry) =>
      residence === null ? entry.residence === null && entry.keys.includes(key) : entry.residence === residence,
    );
    if (same === undefined) {
      lineup.push({ name, residence, keys: [key] });
    } else if (!same.keys.includes(key)) {
      same.name = `${same.name} / ${name}`;
      same.keys.push(key);
    }
  }
  return lineup.map(({ name, residence }) => ({ name, residence }));
}
