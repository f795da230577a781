// What a returning visitor downloads on the home page (issue 11, item 2), from the headers alone:
// starts the real server on the built parts, reads the home page's HTML, takes every same-origin
// file it announces (scripts, styles, preloads), and replays two visits as a browser cache would:
// the first fetches everything, the second (an hour later) skips what is still fresh or immutable
// and revalidates the rest with If-None-Match / If-Modified-Since. Not a test.
//   node bench/returning-visit.mjs [--accept-encoding="br, gzip, deflate, zstd"] [--dist-root=DIR]
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const acceptEncoding = arg('accept-encoding', 'br, gzip, deflate, zstd');
const distRoot = arg('dist-root', undefined);
const LATER_S = 3600;

/** One GET over node:http, body left encoded as sent (fetch would decode it and hide the size). */
function request(url, headers) {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        // Status line, each « name: value\r\n », the blank line.
        let head = `HTTP/1.1 ${String(res.statusCode)} ${res.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          head += res.rawHeaders[i].length + 2 + res.rawHeaders[i + 1].length + 2;
        }
        resolve({
          status: res.statusCode,
          header: (name) => res.headers[name] ?? null,
          body,
          bytes: { headers: head, body: body.byteLength },
        });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

function announced(html, origin) {
  const urls = new Set();
  // The built HTML is minified: attribute values may be unquoted.
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)=(?:"([^"]+)"|([^\s">]+))[^>]*>/g)) {
    const tag = match[0];
    if (tag.startsWith('<link') && !/rel="?(stylesheet|preload|modulepreload|icon)\b/.test(tag)) continue;
    const url = new URL((match[1] ?? match[2]).replaceAll('&amp;', '&'), origin);
    if (url.origin === origin) urls.add(url.toString());
  }
  return [...urls];
}

function freshFor(cacheControl) {
  if (/\bimmutable\b/.test(cacheControl)) return Infinity;
  if (/\bno-cache\b|\bno-store\b/.test(cacheControl)) return 0;
  const maxAge = /max-age=(\d+)/.exec(cacheControl);
  return maxAge === null ? 0 : Number(maxAge[1]);
}

const port = await freePort();
const server = await startServer(root, port, distRoot === undefined ? {} : { DIST_ROOT: distRoot });
const origin = `http://127.0.0.1:${String(port)}`;
try {
  const headers = acceptEncoding === '' ? {} : { 'accept-encoding': acceptEncoding };
  const page = await request(`${origin}/`, headers);
  const cache = new Map();
  const first = { requests: 1, ...page.bytes };
  const encoding = page.header('content-encoding');
  const decode = encoding === 'br' ? brotliDecompressSync : encoding === 'gzip' ? gunzipSync : (b) => b;
  for (const url of announced(decode(page.body).toString('utf8'), origin)) {
    const res = await request(url, headers);
    first.requests += 1;
    first.headers += res.bytes.headers;
    first.body += res.bytes.body;
    cache.set(url, {
      cacheControl: res.header('cache-control') ?? '',
      etag: res.header('etag'),
      lastModified: res.header('last-modified'),
      encoding: res.header('content-encoding') ?? 'identity',
      vary: res.header('vary') ?? '',
    });
  }
  const again = await request(`${origin}/`, headers);
  const second = { requests: 1, ...again.bytes };
  const rows = [];
  for (const [url, entry] of cache) {
    if (freshFor(entry.cacheControl) > LATER_S) {
      rows.push({ url, ...entry, second: 'cache' });
      continue;
    }
    const conditional = { ...headers };
    if (entry.etag !== null) conditional['if-none-match'] = entry.etag;
    if (entry.lastModified !== null) conditional['if-modified-since'] = entry.lastModified;
    const res = await request(url, conditional);
    second.requests += 1;
    second.headers += res.bytes.headers;
    second.body += res.bytes.body;
    rows.push({ url, ...entry, second: String(res.status) });
  }
  for (const row of rows) {
    console.log(
      `${row.second.padEnd(6)} ${row.encoding.padEnd(8)} ${row.cacheControl.padEnd(36)} vary=${row.vary || '-'}  ${row.url.slice(origin.length)}`,
    );
  }
  console.log(`Accept-Encoding: ${acceptEncoding || '(none)'}`);
  console.log(
    `first visit:     ${String(first.requests)} requests, ${String(first.body)} B bodies + ${String(first.headers)} B headers`,
  );
  console.log(
    `returning visit: ${String(second.requests)} requests, ${String(second.body)} B bodies + ${String(second.headers)} B headers`,
  );
} finally {
  server.kill();
}
