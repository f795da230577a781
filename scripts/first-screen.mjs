// @ts-check
// What a page's first screen costs a phone, in bytes on the wire (docs/rendering.md, « The first
// screen's budget »). Bytes are the same on every machine, so the browser tests can hold them to a
// budget (e2e/tests/first-screen.spec.ts) where they could not hold times; the benchmarks and a bisect
// read the same figures (bench/first-screen.mjs).
//
// A page is read as the server sends it to Chromium (`Accept-Encoding: br, gzip`), its HTML parsed
// with parse5, and every request it makes is fetched once and counted as sent, compressed:
// - the document;
// - before the first paint: what its HTML asks for as the parser meets it, i.e. the head's preloads
//   (the LCP image), its style sheets and scripts with a `src`, and the body's images that
//   are not `loading="lazy"`;
// - after the first paint: what the page's loader asks for once the page is painted (the `#boot`
//   preloads, the shell's entry, `data-src`, and the display face its sheets declare), which shares the phone's bandwidth with the LCP
//   image if it is still on its way.
// An image offered in several widths counts the one a phone of 412 CSS px at 1.75 dppx takes
// (Lighthouse's mobile), from the `sizes` the page gives.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse } from 'parse5';

/** Lighthouse's phone: its width in CSS px and its pixel ratio. */
export const PHONE = { width: 412, dppx: 1.75 };

/**
 * One GET as Chromium sends it: the bytes on the wire, and the body decoded.
 * @param {string} url
 * @returns {Promise<{ status: number; bytes: number; body: Buffer }>}
 */
function get(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const body = encoding === 'br' ? brotliDecompressSync(wire) : encoding === 'gzip' ? gunzipSync(wire) : wire;
        resolve({ status: res.statusCode ?? 0, bytes: wire.length, body });
      });
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`pas de réponse de ${url}`)));
    req.end();
  });
}

/** @typedef {import('parse5').DefaultTreeAdapterMap['element']} Element */
/** @typedef {import('parse5').DefaultTreeAdapterMap['parentNode']} ParentNode */
/** @typedef {{ href: string; as: string }} Wanted */

/** @param {Element} element */
const attributesOf = (element) => new Map(element.attrs.map((a) => [a.name.toLowerCase(), a.value]));

/**
 * Every element below a node, in document order (a template's content included).
 * @param {ParentNode} node
 * @returns {Generator<Element>}
 */
function* elements(node) {
  for (const child of node.childNodes) {
    if (!('tagName' in child)) continue;
    yield child;
    yield* elements(child.tagName === 'template' && 'content' in child ? child.content : child);
  }
}

/**
 * A length of `sizes` in CSS px (px, rem at 16 px, vw of the phone).
 * @param {string} length
 */
function cssPx(length) {
  const match = /^([\d.]+)(px|rem|vw)$/.exec(length.trim());
  if (match === null) return PHONE.width;
  const value = Number(match[1]);
  return match[2] === 'px' ? value : match[2] === 'rem' ? value * 16 : (value * PHONE.width) / 100;
}

/**
 * The width `sizes` gives the image on the phone: the first `(min-width: …)` that holds, else the last.
 * @param {string | undefined} sizes
 */
function slotWidth(sizes) {
  for (const entry of (sizes ?? '100vw').split(',')) {
    const match = /^\s*\(min-width:\s*([\d.]+(?:px|rem))\)\s+(.+)$/.exec(entry);
    if (match === null) return cssPx(entry);
    if (PHONE.width >= cssPx(match[1] ?? '')) return cssPx(match[2] ?? '');
  }
  return PHONE.width;
}

/**
 * The candidate of a `srcset` (in `w`) the phone takes: the narrowest wide enough, else the widest.
 * @param {string | undefined} srcset
 * @param {string | undefined} sizes
 * @param {string | undefined} fallback
 * @returns {string | undefined}
 */
export function phoneCandidate(srcset, sizes, fallback) {
  const candidates = (srcset ?? '')
    .split(',')
    .map((candidate) => /^(\S+)\s+(\d+)w$/.exec(candidate.trim()))
    .flatMap((match) => (match === null ? [] : [{ url: match[1] ?? '', width: Number(match[2]) }]))
    .sort((a, b) => a.width - b.width);
  if (candidates.length === 0) return fallback;
  const needed = slotWidth(sizes) * PHONE.dppx;
  return (candidates.find((c) => c.width >= needed) ?? candidates[candidates.length - 1])?.url;
}

/**
 * What the HTML asks for before the first paint, in document order.
 * @param {ParentNode} document
 * @returns {Wanted[]}
 */
function beforePaint(document) {
  /** @type {Wanted[]} */
  const wanted = [];
  for (const element of elements(document)) {
    const a = attributesOf(element);
    const rel = (a.get('rel') ?? '').toLowerCase().split(/\s+/);
    if (element.tagName === 'link' && (rel.includes('preload') || rel.includes('modulepreload'))) {
      const as = a.get('as') ?? 'script';
      const href =
        as === 'image' ? phoneCandidate(a.get('imagesrcset'), a.get('imagesizes'), a.get('href')) : a.get('href');
      if (href !== undefined) wanted.push({ href, as });
    } else if (element.tagName === 'link' && rel.includes('stylesheet') && a.has('href')) {
      wanted.push({ href: a.get('href') ?? '', as: 'style' });
    } else if (element.tagName === 'script' && a.has('src')) {
      wanted.push({ href: a.get('src') ?? '', as: 'script' });
    } else if (element.tagName === 'img' && a.get('loading') !== 'lazy') {
      const href = phoneCandidate(a.get('srcset'), a.get('sizes'), a.get('src'));
      if (href !== undefined && !href.startsWith('data:')) wanted.push({ href, as: 'image' });
    }
  }
  return wanted;
}

/** A web font's file in a `@font-face` rule of a written sheet. */
const FACE_FILE = /@font-face\s*\{[^}]*?url\(\s*["']?([^"')\s]+\.woff2)/g;

/**
 * What the page's loader asks for once the page is painted: its `#boot` preloads, the shell's entry,
 * and the display face, which the page's sheets declare and the loader names then (the browser asks
 * for a face once a style uses it).
 * @param {ParentNode} document
 * @returns {Wanted[]}
 */
function afterPaint(document) {
  /** @type {Wanted[]} */
  const wanted = [];
  /** @type {Wanted[]} */
  const faces = [];
  for (const element of elements(document)) {
    const a = attributesOf(element);
    if (element.tagName === 'style') {
      const [text] = element.childNodes;
      const css = text !== undefined && 'value' in text ? text.value : '';
      for (const match of css.matchAll(FACE_FILE)) faces.push({ href: match[1] ?? '', as: 'font' });
    } else if (element.tagName === 'script' && a.get('id') === 'boot') {
      const [text] = element.childNodes;
      /** @type {{ preloads?: unknown }} */
      const list = JSON.parse(text !== undefined && 'value' in text ? text.value : '{}');
      for (const preload of Array.isArray(list.preloads) ? list.preloads : []) {
        wanted.push({ href: String(preload.href), as: String(preload.as) });
      }
    } else if (element.tagName === 'script' && a.has('data-src')) {
      wanted.push({ href: a.get('data-src') ?? '', as: 'script' });
    }
  }
  return [...wanted, ...faces];
}

/** @typedef {{ requests: { path: string; as: string; bytes: number }[]; bytes: number }} Weighed */

/**
 * Each request fetched once (the browser asks an address once), with its bytes on the wire.
 * @param {Wanted[]} wanted
 * @param {string} base
 * @param {Set<string>} seen
 * @returns {Promise<Weighed>}
 */
async function weigh(wanted, base, seen) {
  /** @type {Weighed['requests']} */
  const requests = [];
  for (const { href, as } of wanted) {
    const url = new URL(href, base).href;
    if (seen.has(url) || !url.startsWith(new URL(base).origin)) continue;
    seen.add(url);
    const answer = await get(url);
    if (answer.status !== 200) throw new Error(`${url} : HTTP ${String(answer.status)}`);
    requests.push({ path: new URL(url).pathname, as, bytes: answer.bytes });
  }
  return { requests, bytes: requests.reduce((sum, r) => sum + r.bytes, 0) };
}

/**
 * A page's first screen: `{ path, document, beforePaint, afterPaint }`, the document's bytes and each
 * group's requests (path, kind, bytes) and bytes, all as sent compressed.
 * @param {string} origin
 * @param {string} path
 * @returns {Promise<{ path: string; document: number; beforePaint: Weighed; afterPaint: Weighed }>}
 */
export async function firstScreen(origin, path) {
  const url = new URL(path, origin).href;
  const page = await get(url);
  if (page.status !== 200) throw new Error(`${url} : HTTP ${String(page.status)}`);
  const document = parse(page.body.toString('utf8'));
  const seen = new Set([url]);
  return {
    path,
    document: page.bytes,
    beforePaint: await weigh(beforePaint(document), url, seen),
    afterPaint: await weigh(afterPaint(document), url, seen),
  };
}
