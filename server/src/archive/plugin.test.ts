import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { listen } from '../api/testing/fixtures';
import { parseMp3 } from '../timeshift/mp3';
import { readId3 } from './id3';
import { writeChoices } from './choices';
import type { ArchiveMode } from './config';
import { ARCHIVE_CACHE } from './plugin';
import { archiveId } from './record';
import { FRAME_MS } from './testing/window';
import { startArchiveSites, type ArchiveSites } from './testing/site';

/**
 * The archiver in the site's server (docs/archive.md): a programme read from a calendar served on
 * the loopback, a slot of Axonberg that ended a minute ago, the timeline's folder holding its
 * frames; the archive made by `app.archives.check()` (the lease holder's look) and served at
 * `/archives/` through the real HTTP server, with byte ranges as nginx answers them.
 */

let sites: ArchiveSites;
let slotStart = 0;
let otherStart = 0;
let id = '';
beforeAll(async () => {
  sites = await startArchiveSites();
  ({ start: slotStart, otherStart } = sites.slots);
  id = archiveId('axonberg', slotStart);
});
afterAll(async () => {
  await sites.close();
});
const site = (mode: ArchiveMode, demo = false) => sites.site(mode, { demo });

describe('live archives in the site’s server', () => {
  let app: FastifyInstance;
  let origin: string;
  let archives: string;

  beforeAll(async () => {
    ({ app, archives } = await site('all'));
    origin = await listen(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps each slot that ended as an archive, once, published under LIVE_ARCHIVE=all', async () => {
    const made = await app.archives.check();
    expect(made.map((entry) => [entry.id, entry.outcome.kind])).toEqual([
      [archiveId('158cm', otherStart), 'written'],
      [id, 'written'],
    ]);
    const record = (await app.archives.published()).find((entry) => entry.id === id);
    expect(record).toMatchObject({ residence: 'axonberg', artist: 'Axonberg', published: true, gaps: [] });
    expect(record?.title).toMatch(/^Synapses — direct du \d{1,2} \S+ \d{4}$/);
    expect(Math.abs((record?.seconds ?? 0) - 300) * 1000).toBeLessThanOrEqual(5 * FRAME_MS);
    // Looked at again: nothing more.
    expect(await app.archives.check()).toEqual([]);
  });

  it('serves the MP3 whole, as audio/mpeg with its exact length, and its tag names the show', async () => {
    const record = (await app.archives.published()).find((entry) => entry.id === id);
    const response = await fetch(`${origin}/archives/${id}.mp3`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('cache-control')).toBe(ARCHIVE_CACHE);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBe(record?.bytes);
    expect(Number(response.headers.get('content-length'))).toBe(record?.bytes);
    expect(readId3(body)?.texts).toMatchObject({ TIT2: record?.title, TPE1: 'Axonberg', TALB: 'Synapses' });
    expect(parseMp3(body).frames).toHaveLength(record?.frames ?? -1);
    // Its ETag sent back: 304.
    const again = await fetch(`${origin}/archives/${id}.mp3`, {
      headers: { 'if-none-match': response.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('answers byte ranges as nginx does: 206 with Content-Range, a suffix, 416 past the end', async () => {
    const whole = Buffer.from(await (await fetch(`${origin}/archives/${id}.mp3`)).arrayBuffer());
    const part = await fetch(`${origin}/archives/${id}.mp3`, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${String(whole.length)}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(100, 1100));
    const tail = await fetch(`${origin}/archives/${id}.mp3`, { headers: { range: 'bytes=-208' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 208));
    const past = await fetch(`${origin}/archives/${id}.mp3`, { headers: { range: `bytes=${String(whole.length)}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${String(whole.length)}`);
  });

  it('serves its VOD playlist, ended', async () => {
    const response = await fetch(`${origin}/archives/${id}.m3u8`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const text = await response.text();
    expect(text).toMatch(/^#EXTM3U\n/);
    expect(text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(text.trim().split('\n').at(-1)).toBe('#EXT-X-ENDLIST');
  });

  it('is an episode of its residence: in /api/episodes, its own, and its chapters the tracks', async () => {
    const record = (await app.archives.published()).find((entry) => entry.id === id);
    const one = await fetch(`${origin}/api/episodes/${id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      slug: id,
      url: `/archives/${id}.mp3`,
      artist: 'Axonberg',
      show: record?.title,
      residences: ['axonberg'],
    });
    const listed = (await (await fetch(`${origin}/api/episodes?residence=axonberg`)).json()) as {
      items: { slug: string }[];
    };
    expect(listed.items[0]?.slug).toBe(id);
    const chapters = await fetch(`${origin}/api/episodes/${id}/chapters.json`);
    // The demo's rotation played a track at the slot's start at least: the tracks are the chapters.
    expect(record?.chapters.length).toBeGreaterThan(0);
    const read = (await chapters.json()) as { chapters: { startTime: number; title: string }[] };
    expect(read.chapters.map((chapter) => chapter.title)).toEqual(
      record?.chapters.map((chapter) => `${chapter.artist} — ${chapter.title}`),
    );
  });

  it('is in its residence’s podcast feed with its MP3 as the enclosure (exact length, audio/mpeg), and in the sitemap', async () => {
    const record = (await app.archives.published()).find((entry) => entry.id === id);
    const feed = await (await fetch(`${origin}/residences/axonberg/feed.xml`)).text();
    const item = feed.split('<item>').find((entry) => entry.includes(`/archives/${id}.mp3`));
    expect(item).toBeDefined();
    expect(item).toMatch(
      new RegExp(
        `<enclosure url="http://localhost:\\d+/archives/${id}\\.mp3" length="${String(record?.bytes)}" type="audio/mpeg"/>`,
      ),
    );
    const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
    expect(sitemap).toContain(`/emissions/${id}</loc>`);
  });

  it('behind nginx, names the file for nginx to send (X-Accel-Redirect) once it knows it is published', async () => {
    const accel = await fetch(`${origin}/archives/${id}.mp3`, { headers: { 'x-collectif-archives': '/_archives/' } });
    expect(accel.status).toBe(200);
    expect(accel.headers.get('x-accel-redirect')).toBe(`/_archives/${id}.mp3`);
    expect(accel.headers.get('cache-control')).toBe(ARCHIVE_CACHE);
    expect(await accel.text()).toBe('');
    // A prefix of any other shape is not followed: the file itself.
    const odd = await fetch(`${origin}/archives/${id}.mp3`, { headers: { 'x-collectif-archives': '/../etc/' } });
    expect(odd.headers.get('x-accel-redirect')).toBeNull();
    expect(odd.headers.get('content-type')).toBe('audio/mpeg');
    await odd.arrayBuffer();
  });

  it('answers 404 for any other name: the record, a temporary file, a path climbing out', async () => {
    writeFileSync(join(archives, `${id}.mp3.0a1b2c3d4e5f.tmp`), 'à moitié');
    for (const name of [
      `${id}.json`,
      `${id}.mp3.0a1b2c3d4e5f.tmp`,
      'choices.json',
      '..%2F..%2Fetc%2Fpasswd',
      'axonberg-2020-01-01-20h00.mp3',
    ]) {
      expect((await fetch(`${origin}/archives/${name}`)).status).toBe(404);
    }
  });
});

describe('who decides (LIVE_ARCHIVE)', () => {
  it('the demo keeps one residence’s shows: the first whose slot ends after the server started', async () => {
    const { app, archives } = await site('chosen', true);
    try {
      // The two slots that ended before it started are not kept; La Brume's, on air, will be.
      expect(await app.archives.check()).toEqual([]);
      expect(JSON.parse(readFileSync(join(archives, 'choices.json'), 'utf8'))).toEqual({
        version: 1,
        residences: { 'la-brume': { keep: true, publish: 'now' } },
      });
    } finally {
      await app.close();
    }
  });

  it('off: no archive is made, none is served', async () => {
    const { app, archives } = await site('off');
    try {
      expect(await app.archives.check()).toEqual([]);
      expect(readdirSync(archives)).toEqual([]);
      expect((await app.inject({ url: `/archives/${id}.mp3` })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('chosen: only the residences that keep their shows; one kept for a look is not served', async () => {
    const { app, archives } = await site('chosen');
    try {
      await writeChoices(archives, { axonberg: { keep: true, publish: 'review' } });
      expect((await app.archives.check()).map((entry) => entry.id)).toEqual([id]);
      expect((await app.archives.all()).map((record) => [record.id, record.published])).toEqual([[id, false]]);
      expect(await app.archives.published()).toEqual([]);
      expect((await app.inject({ url: `/archives/${id}.mp3` })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
