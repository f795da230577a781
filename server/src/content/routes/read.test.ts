import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import type { ApiError, Release, Residence } from '@collectif/shared';
import { safeHtml } from '@collectif/shared/build/safe-html.cjs';
import { seedFile } from '../kinds';
import { buildApi, testConfig } from '../../api/testing/fixtures';

// The content volunteers edit, served at run time (docs/content.md): GET /api/content/:kind and
// /api/releases give the current version, and a saved version at once, with no restart.

let app: FastifyInstance;

beforeEach(async () => {
  app = await buildApi({ config: testConfig() });
});

afterEach(async () => {
  await app.close();
});

const fromRepository = (kind: Parameters<typeof seedFile>[0]): unknown =>
  JSON.parse(readFileSync(seedFile(kind), 'utf8'));

describe('GET /api/content/:kind', () => {
  it('gives each kind as the repository has it at first, revalidated at each use', async () => {
    for (const kind of ['residences', 'releases', 'team', 'about', 'slides'] as const) {
      const res = await app.inject({ url: `/api/content/${kind}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      // A residence's description is served as the safe HTML the pages show (docs/rendering.md).
      const expected =
        kind === 'residences'
          ? (fromRepository(kind) as { description: string }[]).map((entry) => ({
              ...entry,
              description: safeHtml(entry.description),
            }))
          : fromRepository(kind);
      expect(res.json()).toEqual(expected);
    }
  });

  it('gives the residences as a list shows them (`?view=summary`), and one by its id (`?id=`)', async () => {
    const whole = (await app.inject({ url: '/api/content/residences' })).json<Residence[]>();
    const summary = await app.inject({ url: '/api/content/residences?view=summary' });
    expect(summary.statusCode).toBe(200);
    expect(summary.headers['cache-control']).toBe('no-cache');
    expect(summary.json()).toEqual(
      whole.map(({ id, artist, show, portrait }) => ({
        id,
        artist,
        show,
        ...(portrait ? { portrait } : {}),
      })),
    );
    // Far smaller than the whole: no description, no styles, no links.
    expect(summary.body.length).toBeLessThan(JSON.stringify(whole).length / 2);

    const axonberg = whole.find((entry) => entry.id === 'axonberg');
    expect((await app.inject({ url: '/api/content/residences?id=axonberg' })).json()).toEqual([axonberg]);
    // An address retyped in another case names it too; an unknown or hostile one, none.
    expect((await app.inject({ url: '/api/content/residences?id=AXONBERG' })).json()).toEqual([axonberg]);
    for (const id of ['personne', '<script>', '../about']) {
      const none = await app.inject({ url: `/api/content/residences?id=${encodeURIComponent(id)}` });
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual([]);
    }
    expect(
      (await app.inject({ url: '/api/content/residences?id=axonberg&view=summary' })).json<Residence[]>()[0],
    ).toEqual({ id: 'axonberg', artist: axonberg?.artist, show: axonberg?.show });
  });

  it('refuses a view it does not know, a filter on another kind, an id too long', async () => {
    for (const url of [
      '/api/content/residences?view=all',
      '/api/content/team?view=summary',
      '/api/content/releases?id=x',
      `/api/content/residences?id=${'a'.repeat(61)}`,
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiError>().error).toBe('bad_request');
    }
  });

  it('serves a residence’s description as safe HTML whatever was saved', async () => {
    const [first, ...rest] = fromRepository('residences') as { id: string; description: string }[];
    const description =
      'Du <em>dub</em>.<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a>';
    await app.content.save('residences', [{ ...first, description }, ...rest], { by: 'test' });
    const served = (await app.inject({ url: '/api/content/residences' })).json<{ id: string; description: string }[]>();
    const shown = served.find((entry) => entry.id === first?.id)?.description ?? '';
    expect(shown).toContain('<em>dub</em>');
    expect(shown).not.toMatch(/<script|onerror|javascript:/);
  });

  it('gives a saved version at once, with a new ETag, and never says who saved it', async () => {
    const before = await app.inject({ url: '/api/content/team' });
    const team = before.json<{ title: string }[]>();
    await app.content.save('team', [{ ...team[0], title: 'Camille B.' }, ...team.slice(1)], { by: 'compte-secret' });
    const after = await app.inject({
      url: '/api/content/team',
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json<{ title: string }[]>()[0]?.title).toBe('Camille B.');
    expect(after.body).not.toContain('compte-secret');
    const again = await app.inject({
      url: '/api/content/team',
      headers: { 'if-none-match': String(after.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers an unknown kind with a 404 in French, naming the kinds', async () => {
    for (const kind of ['membres', '..%2F..%2Fetc', 'constructor', '__proto__']) {
      const res = await app.inject({ url: `/api/content/${kind}` });
      expect(res.statusCode).toBe(404);
      expect(res.json<ApiError>().message).toBe(
        'Contenu inconnu : residences, releases, tracklists, team, about, slides, support, artistMerges, figures existent.',
      );
    }
  });
});

describe('GET /api/releases', () => {
  it('gives the label team’s last saved releases, newest first', async () => {
    const releases = fromRepository('releases') as Release[];
    const [first] = releases;
    if (first === undefined) throw new Error('aucune sortie');
    await app.content.save('releases', [{ ...first, title: 'Nouvelle sortie' }, ...releases], { by: 'label' });
    const res = await app.inject({ url: '/api/releases?limit=2', headers: { cookie: 'XSRF-TOKEN=abc' } });
    expect(res.json<Release[]>().map(({ title }) => title)).toEqual(['Nouvelle sortie', first.title]);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });
});
