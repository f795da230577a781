import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { listen } from '../api/testing/fixtures';
import { editorClient } from '../api/testing/editors';
import { parseMp3 } from '../timeshift/mp3';
import { readId3 } from './id3';
import { archiveId, type ArchiveRecord } from './record';
import { startArchiveSites, type ArchiveSites } from './testing/site';

// The live archives in the editor (docs/archive.md, « The editor »), over real HTTP on loopback:
// a residence's choice, an archive's title, text, published or hidden, deleted; a resident sees
// only their residence's, another team none; hostile titles and texts kept as text.

const TOKEN = 'jeton-admin-du-test-de-24-car';
let sites: ArchiveSites;
let app: FastifyInstance;
let base: string;
let archives: string;
let axonberg = '';
let other = '';

beforeAll(async () => {
  sites = await startArchiveSites();
  axonberg = archiveId('axonberg', sites.slots.start);
  other = archiveId('158cm', sites.slots.otherStart);
  ({ app, archives } = await sites.site('chosen', { adminToken: TOKEN }));
  base = await listen(app);
});
afterAll(async () => {
  await app.close();
  await sites.close();
});

const { send, volunteer } = editorClient(() => ({ app, base }), TOKEN);

interface Listing {
  mode: string;
  residences: { id: string; choice: { keep: boolean; publish: string } }[];
  archives: ArchiveRecord[];
}

describe('the live archives in the editor', () => {
  it('keeps a residence’s choice, and archives its shows as it chose: kept for a look, then published', async () => {
    expect(
      (await send('/editor/archives/residences/axonberg', { method: 'PUT', body: { keep: true, publish: 'review' } }))
        .status,
    ).toBe(200);
    expect(
      (await send('/editor/archives/residences/158cm', { method: 'PUT', body: { keep: true, publish: 'now' } })).status,
    ).toBe(200);
    const made = await app.archives.check();
    expect(made.map((entry) => entry.id).sort()).toEqual([axonberg, other].sort());
    const listing = (await (await send('/editor/archives')).json()) as Listing;
    expect(listing.mode).toBe('chosen');
    expect(listing.residences.find((entry) => entry.id === 'axonberg')?.choice).toEqual({
      keep: true,
      publish: 'review',
    });
    expect(listing.archives.map((record) => [record.id, record.published])).toEqual([
      [axonberg, false],
      [other, true],
    ]);
    expect((await fetch(`${base}/archives/${axonberg}.mp3`)).status).toBe(404);
    const published = await send(`/editor/archives/${axonberg}`, { method: 'PUT', body: { published: true } });
    expect(published.status).toBe(200);
    expect((await fetch(`${base}/archives/${axonberg}.mp3`)).status).toBe(200);
    expect((await (await fetch(`${base}/api/episodes/${axonberg}`)).json()) as object).toMatchObject({
      slug: axonberg,
    });
  });

  it('keeps a hostile title and text as text, in the record, the MP3’s tag and the episode', async () => {
    const title = '<img src=x onerror=alert(1)>\u0000 Synapses « spéciale »';
    const text = 'Ligne un <script>alert(1)</script>\n\nLigne & deux';
    const changed = await send(`/editor/archives/${axonberg}`, { method: 'PUT', body: { title, text } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      title: '<img src=x onerror=alert(1)> Synapses « spéciale »',
      text: 'Ligne un <script>alert(1)</script>\n\nLigne & deux',
    });
    const tag = readId3(readFileSync(join(archives, `${axonberg}.mp3`)));
    expect(tag?.texts.TIT2).toBe('<img src=x onerror=alert(1)> Synapses « spéciale »');
    const episode = (await (await fetch(`${base}/api/episodes/${axonberg}`)).json()) as {
      show: string;
      summary: string;
    };
    expect(episode.show).toBe('<img src=x onerror=alert(1)> Synapses « spéciale »');
    expect(episode.summary).toMatch(
      /^Ligne un &lt;script&gt;alert\(1\)&lt;\/script&gt;<br><br>Ligne &amp; deux<br>Enregistré en direct/,
    );
  });

  it('refuses an empty title and a body of another shape, in French', async () => {
    const empty = await send(`/editor/archives/${axonberg}`, { method: 'PUT', body: { title: ' \u0000 ' } });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toBe('Le titre ne peut pas être vide.');
    const odd = await send(`/editor/archives/${axonberg}`, { method: 'PUT', body: { published: 'oui' } });
    expect(odd.status).toBe(400);
    expect(((await odd.json()) as { message: string }).message).toBe('Champ « published » invalide.');
    const choice = await send('/editor/archives/residences/axonberg', {
      method: 'PUT',
      body: { keep: true, publish: 'demain' },
    });
    expect(choice.status).toBe(400);
  });

  it('trims an archive to the second: its frames as they were, its chapters, length and playlist moved', async () => {
    const before = (await app.archives.all()).find((record) => record.id === axonberg);
    const response = await send(`/editor/archives/${axonberg}`, {
      method: 'PUT',
      body: { trim: { start: 60, end: 120 } },
    });
    expect(response.status).toBe(200);
    const after = (await response.json()) as ArchiveRecord;
    const mp3 = readFileSync(join(archives, `${axonberg}.mp3`));
    const parsed = parseMp3(mp3);
    expect(Math.abs(after.seconds - 60) * 1000).toBeLessThanOrEqual(parsed.frameMs);
    expect(after.bytes).toBe(mp3.length);
    expect(parsed.frames).toHaveLength(after.frames);
    const last = parsed.frames.at(-1);
    expect((last?.offset ?? 0) + (last?.size ?? 0)).toBe(mp3.length);
    // The frames kept are those of the old archive from its 60th second, byte for byte.
    expect(Date.parse(after.audio.start) - Date.parse(before?.audio.start ?? '')).toBeCloseTo(60_000, -2);
    const tag = readId3(mp3);
    expect(tag?.texts.TLEN).toBe(String(Math.round(after.seconds * 1000)));
    expect(after.chapters[0]?.start).toBe(0);
    expect(tag?.chapters.map((chapter) => chapter.startMs)).toEqual(
      after.chapters.map((chapter) => chapter.start * 1000),
    );
    const playlist = readFileSync(join(archives, `${axonberg}.m3u8`), 'utf8');
    const ranges = [...playlist.matchAll(/#EXT-X-BYTERANGE:(\d+)@(\d+)/g)].map((match) => [
      Number(match[1]),
      Number(match[2]),
    ]);
    expect(ranges[0]?.[1]).toBe(tag?.size);
    expect(ranges.reduce((sum, [length = 0]) => sum + length, 0)).toBe(mp3.length - (tag?.size ?? 0));
    // A cut past the end, or backwards, is refused in French.
    const refused = await send(`/editor/archives/${axonberg}`, {
      method: 'PUT',
      body: { trim: { start: 30, end: 600 } },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'Coupe impossible : le début doit précéder la fin, et la fin ne pas dépasser 60 s.',
    );
  });

  it('hides an archive: out of the site and the feeds at once', async () => {
    expect((await send(`/editor/archives/${axonberg}`, { method: 'PUT', body: { published: false } })).status).toBe(
      200,
    );
    expect((await fetch(`${base}/archives/${axonberg}.mp3`)).status).toBe(404);
    expect((await fetch(`${base}/api/episodes/${axonberg}`)).status).toBe(404);
  });

  it('shows a resident only their residence’s archives, and refuses the others’ and other teams', async () => {
    const resident = await volunteer('residence', 'resident-axonberg', 'axonberg');
    const listing = (await (await send('/editor/archives', { as: resident })).json()) as Listing;
    expect(listing.residences.map((entry) => entry.id)).toEqual(['axonberg']);
    expect(listing.archives.map((record) => record.id)).toEqual([axonberg]);
    expect(
      (await send(`/editor/archives/${other}`, { method: 'PUT', as: resident, body: { published: false } })).status,
    ).toBe(404);
    expect(
      (
        await send('/editor/archives/residences/158cm', {
          method: 'PUT',
          as: resident,
          body: { keep: false, publish: 'now' },
        })
      ).status,
    ).toBe(403);
    // Their archive heard before it is published (the look), with byte ranges; not another residence's.
    const heard = await send(`/editor/archives/${axonberg}/audio`, { as: { ...resident, range: 'bytes=0-9' } });
    expect(heard.status).toBe(206);
    expect(heard.headers.get('content-type')).toBe('audio/mpeg');
    expect(heard.headers.get('cache-control')).toBe('private, no-store');
    expect(
      Buffer.from(await heard.arrayBuffer())
        .subarray(0, 3)
        .toString('latin1'),
    ).toBe('ID3');
    expect((await send(`/editor/archives/${other}/audio`, { as: resident })).status).toBe(404);
    const label = await volunteer('label', 'equipe-label');
    expect((await send('/editor/archives', { as: label })).status).toBe(403);
    expect((await fetch(`${base}/api/editor/archives`)).status).toBe(401);
    expect((await fetch(`${base}/api/editor/archives/${axonberg}/audio`)).status).toBe(401);
  });

  it('deletes an archive, which is not made again by the next look', async () => {
    expect((await send(`/editor/archives/${other}`, { method: 'DELETE' })).status).toBe(204);
    expect(existsSync(join(archives, `${other}.mp3`))).toBe(false);
    expect(existsSync(join(archives, `${other}.json`))).toBe(false);
    expect(await app.archives.check()).toEqual([]);
    expect((await send(`/editor/archives/${other}`, { method: 'DELETE' })).status).toBe(404);
  });
});
