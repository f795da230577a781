import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { pagesJson } from '@collectif/shared/testing';
import { buildApp } from '../app/app';
import { fakeAudioDir, listen, testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { documentJson } from '../site/render/fixtures';
import { readPackedTimestamp, timestamp90k } from './packed';
import { PLAYLIST_CACHE, SEGMENT_CACHE } from './plugin';
import { readMediaPlaylist, readMultivariantPlaylist } from './testing/m3u8';

/**
 * /direct/ under `npm start` (docs/timeshift.md, « Served »): the folder the recorder writes,
 * answered by the Fastify server with nginx's names and headers (deploy/nginx.conf), and the
 * recorder started with the server when LIVE_TIMESHIFT_HOURS > 0, on the demo's own live.
 */

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** A built site as small as the server starts with. */
function siteDist(): string {
  const dir = folder('site-');
  write(dir, 'shell/dist/document.json', documentJson());
  write(dir, 'shell/dist/main.0123456789.js', 'console.log("shell");');
  for (const part of ['mf-player', 'mf-radio', 'mf-label', 'mf-about'])
    write(dir, `${part}/dist/mf-manifest.json`, '{}');
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(dir, `${part}/dist/pages.json`, pagesJson(part));
  return dir;
}

async function site(timeshift: { hours: number; dir: string; segmentSeconds: number }): Promise<FastifyInstance> {
  const dist = siteDist();
  const config = testConfig({ timeshift });
  return buildApp({
    site: readSiteServerConfig({ DIST_ROOT: dist, ASSETS_DIR: join(dist, 'assets') }),
    api: { ...config, demo: { ...config.demo, audioDir: fakeAudioDir(200) } },
  });
}

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

describe('/direct/ served as nginx serves it', () => {
  let dir: string;
  let app: FastifyInstance;
  const segment = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(400, 7)]);
  const full = '#EXTM3U\n#EXT-X-VERSION:9\n# la fenêtre entière\n';
  const delta = '#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-SKIP:SKIPPED-SEGMENTS=10\n';

  beforeAll(async () => {
    dir = folder('direct-');
    write(dir, 'live.m3u8', '#EXTM3U\n# variantes\n');
    write(
      dir,
      'window.json',
      '{"start":"2026-03-04T20:00:00.000Z","end":"2026-03-04T21:00:00.000Z","segmentSeconds":2}',
    );
    for (const id of ['normale', 'econome']) {
      write(dir, `${id}/886327200.mp3`, segment);
      write(dir, `${id}/index.m3u8`, full);
      write(dir, `${id}/delta.m3u8`, delta);
      write(dir, `${id}/index.json`, '{"version":1,"segments":[]}');
      write(dir, `${id}/886327201.mp3.0a1b2c3d4e5f.tmp`, 'à moitié');
    }
    // Beside the folder: what a path that climbs out of it would reach.
    write(join(dir, '..'), `${dir.split('/').at(-1) ?? ''}-secret.txt`, 'CONTENU PRIVÉ');
    app = await site({ hours: 0.01, dir, segmentSeconds: 2 });
  });

  afterAll(async () => {
    await app.close();
  });

  it('gives a segment as MPEG audio, immutable for a year, readable from any origin', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/direct/normale/886327200.mp3' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('audio/mpeg');
      expect(res.headers['cache-control']).toBe(SEGMENT_CACHE);
      expect(SEGMENT_CACHE).toBe('public, max-age=31536000, immutable');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      if (method === 'GET') expect(res.rawPayload.equals(segment)).toBe(true);
    }
  });

  it('gives the playlists and window.json for a second, with their types', async () => {
    const cases: [string, string, string][] = [
      ['/direct/live.m3u8', PLAYLIST_TYPE, '#EXTM3U\n# variantes\n'],
      ['/direct/normale/index.m3u8', PLAYLIST_TYPE, full],
      ['/direct/econome/index.m3u8', PLAYLIST_TYPE, full],
      ['/direct/window.json', 'application/json; charset=utf-8', readFileSync(join(dir, 'window.json'), 'utf8')],
    ];
    for (const [url, type, body] of cases) {
      const res = await app.inject({ url });
      expect([url, res.statusCode, res.headers['content-type'], res.body]).toEqual([url, 200, type, body]);
      expect(res.headers['cache-control']).toBe(PLAYLIST_CACHE);
      expect(PLAYLIST_CACHE).toBe('public, max-age=1');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('answers 304 to a player that has the playlist already (its ETag), and the new one once it changed', async () => {
    const url = '/direct/econome/index.m3u8';
    const etag = (await app.inject({ url })).headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await app.inject({ url, headers: { 'if-none-match': String(etag) } });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    // As every conditional GET of the site: a list of tags, a weak one (a cache that compressed it).
    for (const asked of [`"autre", ${String(etag)}`, `W/${String(etag)}`]) {
      const listed = await app.inject({ url, headers: { 'if-none-match': asked } });
      expect([listed.statusCode, listed.headers['cache-control']]).toEqual([304, PLAYLIST_CACHE]);
    }
    write(dir, 'econome/index.m3u8', `${full}#EXTINF:2.000,\n886327201.mp3\n`);
    const changed = await app.inject({ url, headers: { 'if-none-match': String(etag) } });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('886327201.mp3');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('answers the delta update to ?_HLS_skip=YES or v2, the whole playlist to anything else', async () => {
    for (const [query, body] of [
      ['_HLS_skip=YES', delta],
      ['_HLS_skip=v2', delta],
      ['_HLS_skip=YES&_HLS_msn=886327210', delta],
      ['_HLS_skip=NO', full],
      ['_HLS_skip=yes', full],
      ['_HLS_skip=YES&_HLS_skip=v2', full],
      ['', full],
    ] as const) {
      const res = await app.inject({ url: `/direct/normale/index.m3u8?${query}` });
      expect([query, res.statusCode, res.body]).toEqual([query, 200, body]);
      expect(res.headers['content-type']).toBe(PLAYLIST_TYPE);
    }
  });

  it('serves nothing else: no listing, no index, no temporary file, no delta by its name, no other rendition', async () => {
    // A folder's address goes where the site sends any address ending in « / »: nowhere listed.
    for (const url of ['/direct/', '/direct/normale/', '/direct', '/direct/normale']) {
      const res = await app.inject({ url });
      expect([url, res.statusCode === 200, res.body.includes('886327200')]).toEqual([url, false, false]);
    }
    for (const url of [
      '/direct/normale/index.json',
      '/direct/normale/delta.m3u8',
      '/direct/normale/886327201.mp3.0a1b2c3d4e5f.tmp',
      '/direct/normale/886327201.mp3',
      '/direct/normale/0886327200.mp3x',
      '/direct/normale/1234567890123456.mp3',
      '/direct/autre/index.m3u8',
      '/direct/autre/886327200.mp3',
      '/direct/normale/sous/886327200.mp3',
    ]) {
      const res = await app.inject({ url });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.headers['cache-control']).not.toBe(SEGMENT_CACHE);
    }
  });

  it('never leaves its folder, whatever the path says', async () => {
    const secret = `${dir.split('/').at(-1) ?? ''}-secret.txt`;
    for (const url of [
      `/direct/..%2F${secret}`,
      `/direct/normale/..%2F..%2F${secret}`,
      `/direct/%2e%2e/${secret}`,
      `/direct/normale/%2e%2e%2f%2e%2e%2f${secret}`,
      `/direct/..%5C${secret}`,
      '/direct/normale/..%2Findex.json',
      '/direct/normale/%2e%2e%2f..%2fetc%2fpasswd',
      '/direct/%00/index.m3u8',
    ]) {
      const res = await app.inject({ url });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.body).not.toContain('CONTENU PRIVÉ');
    }
  });
});

describe('/direct/ while the timeline is off (LIVE_TIMESHIFT_HOURS=0)', () => {
  it('answers nothing and records nothing, even with a folder full of segments', async () => {
    const dir = folder('direct-off-');
    write(dir, 'live.m3u8', '#EXTM3U\n');
    write(dir, 'normale/886327200.mp3', 'ID3');
    const app = await site({ hours: 0, dir, segmentSeconds: 2 });
    try {
      await listen(app);
      for (const url of ['/direct/live.m3u8', '/direct/normale/886327200.mp3', '/direct/window.json']) {
        expect([url, (await app.inject({ url })).statusCode]).toEqual([url, 404]);
      }
      expect(app.timeshiftRecorder.current).toBeNull();
    } finally {
      await app.close();
    }
  });
});

describe('the recorder started with the server', () => {
  /** Polls `read` until it gives a value, for at most `ms` (a guard, not a timing goal). */
  async function until<T>(read: () => Promise<T | null>, ms = 12_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (value !== null) return value;
      if (Date.now() > end) throw new Error('attendu en vain');
      await delay(100);
    }
  }

  // Its first segment starts once the server's buffer has come (docs/timeshift.md, « The clock »):
  // some seconds. The recorder listens over HTTP; the test reads /direct/ as the server answers it.
  it('records the demo’s two mounts from its own address, serves them under /direct/, and stops at close', async () => {
    const dir = folder('direct-demo-');
    const app = await site({ hours: 0.01, dir, segmentSeconds: 2 });
    let closed = false;
    try {
      await listen(app);
      // Started once the server listens (onListen, which listen() does not wait for).
      const recorder = await until(() => Promise.resolve(app.timeshiftRecorder.current));
      expect(recorder.recording()).toBe(true);
      const get = (url: string) => app.inject({ url });
      // A segment of each rendition, as a listener's player reads them.
      const playlists = await until(async () => {
        const read = await Promise.all(
          ['normale', 'econome'].map(async (id) => {
            const res = await get(`/direct/${id}/index.m3u8`);
            if (res.statusCode !== 200) return null;
            const playlist = readMediaPlaylist(res.body);
            return playlist.segments.some((each) => !each.gap) ? playlist : null;
          }),
        );
        return read.every((each) => each !== null) ? read : null;
      });
      const multivariant = readMultivariantPlaylist((await get('/direct/live.m3u8')).body);
      expect(multivariant.map((variant) => variant.uri)).toEqual(['normale/index.m3u8', 'econome/index.m3u8']);
      for (const playlist of playlists) {
        const [first] = playlist.segments;
        if (first?.programDateTime === null || first === undefined) throw new Error('pas de segment daté');
        // Named by its slot on the grid, its start in the slot.
        expect(first.sequence).toBe(Math.floor(first.programDateTime / 2000));
        expect(first.uri).toBe(`${String(first.sequence)}.mp3`);
      }
      const first = playlists[0]?.segments[0];
      const res = await get(`/direct/normale/${first?.uri ?? ''}`);
      expect(res.headers['content-type']).toBe('audio/mpeg');
      // The same instant in its ID3 tag as its date in the playlist, to the millisecond the date is written in.
      const tag = Number(readPackedTimestamp(res.rawPayload));
      expect(Math.abs(tag - Number(timestamp90k(first?.programDateTime ?? 0)))).toBeLessThanOrEqual(90);
      // window.json: the normal rendition's window.
      const window = (await get('/direct/window.json')).json<Record<string, unknown>>();
      expect(window).toEqual({
        start: expect.any(String) as string,
        end: expect.any(String) as string,
        segmentSeconds: 2,
      });
      expect(Date.parse(String(window.start))).toBe(first?.programDateTime);
      await app.close();
      closed = true;
      expect(app.timeshiftRecorder.current).toBeNull();
    } finally {
      if (!closed) await app.close();
    }
  }, 30_000);
});

describe('/direct/ in the audience figures (docs/figures.md)', () => {
  it('counts the listener who asks for a playlist, and not one who asks for a segment or a page', async () => {
    const dir = folder('direct-');
    write(dir, 'live.m3u8', '#EXTM3U\n');
    write(dir, 'normale/index.m3u8', '#EXTM3U\n');
    write(dir, 'normale/886327200.mp3', Buffer.concat([Buffer.from('ID3'), Buffer.alloc(400, 7)]));
    const app = await site({ hours: 0.01, dir, segmentSeconds: 2 });
    try {
      const from = (address: string) => ({ remoteAddress: address, headers: { 'user-agent': 'hls.js' } });
      expect((await app.inject({ url: '/direct/normale/886327200.mp3', ...from('203.0.113.61') })).statusCode).toBe(
        200,
      );
      await app.inject({ url: '/', ...from('203.0.113.61') });
      expect((await app.inject({ url: '/direct/normale/index.m3u8', ...from('203.0.113.62') })).statusCode).toBe(200);
      expect((await app.figures.sample())?.sources.timeline).toBe(1);
    } finally {
      await app.close();
    }
  });
});
