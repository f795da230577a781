/**
 * Whether a file the service worker kept is the file the site published (docs/published.md, « What
 * a page's script cannot forge »). Any script of the site's origin can write any of the worker's
 * caches (`caches.open(name).put(…)`): a team's hostile version, while it is live, could leave a
 * player chunk or an offline page of its own there, which the worker would go on answering after the
 * version is rolled back. So the worker checks a kept file, before it answers with it, against what
 * no page's script can change: its name, which the page the network sent names, for a content-hashed
 * file; the digest written into the worker's own script at build, for a precached one.
 */

/** A content-hashed file's name (`main.<hash>.js`, `files/x.<hash>.woff2`): 32 hex digits, 128 bits. */
const HASHED_NAME = /\.([0-9a-f]{32})\.(?!map$)[a-z0-9]+$/;

/** The hash a content-hashed file's path carries, or null for any other path. */
export function nameHash(path: string): string | null {
  return HASHED_NAME.exec(path)?.[1] ?? null;
}

/** `bytes` with every occurrence of the ASCII text `text` taken out. */
function without(bytes: Uint8Array, text: string): Uint8Array<ArrayBuffer> {
  const needle = Array.from(text, (character) => character.charCodeAt(0));
  const first = needle[0];
  const kept = new Uint8Array(bytes.length);
  let length = 0;
  let at = 0;
  while (at < bytes.length) {
    if (bytes[at] === first && needle.every((byte, offset) => bytes[at + offset] === byte)) {
      at += needle.length;
      continue;
    }
    kept[length++] = bytes[at++] ?? 0;
  }
  return kept.subarray(0, length);
}

async function sha256(bytes: BufferSource): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Whether `body` is the file a content-hashed name says: its hash is the first 32 hex digits of the
 * SHA-256 of the body with every occurrence of that hash taken out, the rule webpack's
 * realContentHash names files by (a file that names itself, in the comment pointing at its source
 * map or its licence file, is hashed without those names), which every build checks
 * (shared/build/webpack.mjs, `contentHashOf`). Forging a body for a given name is finding a
 * preimage of 128 bits of SHA-256.
 */
export async function matchesName(hash: string, body: ArrayBuffer): Promise<boolean> {
  if (!/^[0-9a-f]{32}$/.test(hash)) return false;
  return hex(await sha256(without(new Uint8Array(body), hash))).slice(0, hash.length) === hash;
}

/** Whether `body` has the digest a precache entry's integrity (`sha256-<base64>`) gives. */
export async function matchesIntegrity(integrity: string | undefined, body: ArrayBuffer): Promise<boolean> {
  const expected = /^sha256-([A-Za-z0-9+/]{43}=)$/.exec(integrity ?? '')?.[1];
  return expected !== undefined && base64(await sha256(body)) === expected;
}

/** The type a kept file is answered with, by its extension: never the one a forged copy claimed. */
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json',
  woff2: 'font/woff2',
  woff: 'font/woff',
  svg: 'image/svg+xml',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

/**
 * The policy of the offline page: its own script and sheet, nothing inline, nothing else. Its links
 * are made from the caches (the table of pages, the pages kept), which a page's script can write.
 */
const OFFLINE_PAGE_POLICY =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A kept file as the worker answers it: its bytes, with headers of the worker's own, by its
 * extension. A page's script writes a kept answer's headers as well as its body (a `Refresh`,
 * another type, no policy): none of them is passed on.
 */
export function fileAnswer(path: string, body: ArrayBuffer): Response {
  const extension = /\.([a-z0-9]+)$/.exec(path)?.[1] ?? '';
  const headers: Record<string, string> = {
    'content-type': TYPES[extension] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
  };
  if (extension === 'html') headers['content-security-policy'] = OFFLINE_PAGE_POLICY;
  return new Response(body, { status: 200, headers });
}

/**
 * The policy a kept page is answered with, without network. Its HTML has no name to check, and a
 * page's script can write it: it is shown as it was kept, its text, pictures and links, and nothing
 * in it runs (no script, its own or one it names, no form, no frame; `allow-same-origin` keeps it
 * the site's page, whose pictures the worker answers, and gives nothing to a document that runs no
 * script).
 */
export const KEPT_PAGE_POLICY =
  "sandbox allow-same-origin; script-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; base-uri 'none'; form-action 'none'";

/** A kept page as the worker answers it without network: its HTML, inert (`KEPT_PAGE_POLICY`). */
export function keptPageAnswer(body: ArrayBuffer): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': KEPT_PAGE_POLICY,
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * The offline page when its precached copy was found forged without network to fetch it again: a
 * few words, written here, in the worker's own script. The precached page comes back at the next
 * visit with network.
 */
export function offlineNotice(): Response {
  return new Response(
    '<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Hors ligne</title></head><body><main><h1>Vous êtes hors ligne</h1><p>Cette page n’a pas pu être chargée : le réseau ne répond pas.</p><p><a href="">Réessayer</a></p></main></body></html>',
    {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': KEPT_PAGE_POLICY,
        'x-content-type-options': 'nosniff',
      },
    },
  );
}
