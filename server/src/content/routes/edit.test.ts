import type { FastifyInstance, InjectOptions } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { buildApi, testConfig } from '../../api/testing/fixtures';

// The content's writes (docs/content.md, « Editing »): with the admin's token and the XSRF header,
// a save, a residence's entry, the history, an earlier version, a restore; refused without them,
// with a schema's errors in French, on a conflict, and for an unknown kind or version.

const TOKEN = 'jeton-admin-du-test';
const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' };
const AS_ADMIN = { ...XSRF, authorization: `Bearer ${TOKEN}` };

interface Residence {
  id: string;
  artist: string;
  description: string;
}
interface Saved {
  version: { id: string; by: string; kind: string; restoredFrom?: string };
}

let app: FastifyInstance;

beforeEach(async () => {
  app = await buildApi({ config: testConfig({ adminToken: TOKEN }) });
});

afterEach(async () => {
  await app.close();
});

const call = (options: InjectOptions) => app.inject({ headers: AS_ADMIN, ...options });
const residences = async () => (await app.inject({ url: '/api/content/residences' })).json<Residence[]>();

describe('content writes', () => {
  it('saves one residence from the version it started from, and serves it at once', async () => {
    const history = (await call({ url: '/api/content/residences/history' })).json<{ current: string }>();
    const [first] = await residences();
    if (first === undefined) throw new Error('aucune résidence');
    const res = await call({
      method: 'PUT',
      url: `/api/content/residences/${first.id}`,
      payload: { basedOn: history.current, entry: { ...first, description: 'Une nouvelle bio.' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Saved>().version).toMatchObject({ kind: 'residences', by: 'admin (jeton)' });
    expect((await residences()).find(({ id }) => id === first.id)?.description).toBe('Une nouvelle bio.');
  });

  it('says a schema’s errors in French, field by field, and changes nothing', async () => {
    const before = await residences();
    const [first] = before;
    if (first === undefined) throw new Error('aucune résidence');
    const res = await call({
      method: 'PUT',
      url: `/api/content/residences/${first.id}`,
      payload: { entry: { ...first, artist: '', instagram: 'http://instagram.com/x' } },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; problems: string[] }>();
    expect(body.message).toBe('Le contenu a des erreurs : rien n’a été enregistré.');
    expect(body.problems.join('\n')).toMatch(/champ \/\d+\/artist : trop court/);
    expect(body.problems.join('\n')).toMatch(/champ \/\d+\/instagram : forme invalide/);
    expect(await residences()).toEqual(before);
  });

  it('refuses a description of 200,000 characters, and a list of styles without end, and saves nothing', async () => {
    const before = await residences();
    const [first] = before;
    if (first === undefined) throw new Error('aucune résidence');
    const res = await call({
      method: 'PUT',
      url: `/api/content/residences/${first.id}`,
      payload: {
        entry: {
          ...first,
          description: 'a'.repeat(200_000),
          styles: Array.from({ length: 50 }, (_, i) => `style ${String(i)}`),
        },
      },
    });
    expect(res.statusCode).toBe(400);
    const problems = res.json<{ problems: string[] }>().problems.join('\n');
    expect(problems).toMatch(/champ \/\d+\/description : trop long/);
    expect(problems).toMatch(/champ \/\d+\/styles : trop long/);
    expect(await residences()).toEqual(before);
  });

  it('tells the second of two editors of the same residence, with the current version', async () => {
    const { current } = (await call({ url: '/api/content/residences/history' })).json<{ current: string }>();
    const [first] = await residences();
    if (first === undefined) throw new Error('aucune résidence');
    const save = (description: string) =>
      call({
        method: 'PUT',
        url: `/api/content/residences/${first.id}`,
        payload: { basedOn: current, entry: { ...first, description } },
      });
    expect((await save('Première.')).statusCode).toBe(200);
    const second = await save('Seconde.');
    expect(second.statusCode).toBe(409);
    const body = second.json<{ message: string; current: { data: Residence[] } }>();
    expect(body.message).toMatch(/^Modifié entre-temps par admin \(jeton\)/);
    expect(body.current.data.find(({ id }) => id === first.id)?.description).toBe('Première.');
    expect((await residences()).find(({ id }) => id === first.id)?.description).toBe('Première.');
  });

  it('keeps a residence’s id: an entry under another id is refused', async () => {
    const [first] = await residences();
    if (first === undefined) throw new Error('aucune résidence');
    const res = await call({
      method: 'PUT',
      url: `/api/content/residences/${first.id}`,
      payload: { entry: { ...first, id: 'autre-residence' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiError>().message).toBe(`L’identifiant de la résidence doit rester « ${first.id} ».`);
  });

  it('lists the history newest first, gives an earlier version, and restores it as a new one', async () => {
    const team = (await app.inject({ url: '/api/content/team' })).json<{ title: string }[]>();
    const seeded = (await call({ url: '/api/content/team/history' })).json<{ current: string }>().current;
    const saved = await call({ method: 'PUT', url: '/api/content/team', payload: { data: team.slice(1) } });
    expect(saved.statusCode).toBe(200);
    const history = (await call({ url: '/api/content/team/history' })).json<{
      current: string;
      versions: { id: string; by: string }[];
    }>();
    expect(history.versions.map(({ by }) => by)).toEqual(['admin (jeton)', 'dépôt']);
    expect(history.current).toBe(history.versions[0]?.id);
    expect((await call({ url: `/api/content/team/versions/${seeded}` })).json<{ data: unknown }>().data).toEqual(team);

    const restored = await call({ method: 'POST', url: '/api/content/team/restore', payload: { id: seeded } });
    expect(restored.json<Saved>().version.restoredFrom).toBe(seeded);
    expect((await app.inject({ url: '/api/content/team' })).json()).toEqual(team);
  });

  it('refuses a write without the token, with a wrong one, or without the XSRF header', async () => {
    const team = (await app.inject({ url: '/api/content/team' })).json<unknown[]>();
    const put = (headers: Record<string, string>) =>
      app.inject({ method: 'PUT', url: '/api/content/team', headers, payload: { data: team.slice(1) } });
    expect((await put(XSRF)).statusCode).toBe(401);
    expect((await put({ ...XSRF, authorization: 'Bearer faux' })).statusCode).toBe(401);
    expect((await put({ cookie: 'XSRF-TOKEN=abc', authorization: `Bearer ${TOKEN}` })).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/content/team/history', headers: XSRF })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/content/team' })).json()).toEqual(team);
  });

  it('answers 429 past ten wrong tokens a minute from one address, the right one too, and logs them without the token', async () => {
    const lines: string[] = [];
    const logged = await buildApi({ config: testConfig({ adminToken: TOKEN }) }, { log: (line) => lines.push(line) });
    try {
      const wrong = 'Bearer un-mauvais-jeton-de-24-caracteres';
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        const res = await logged.inject({
          method: 'PUT',
          url: '/api/content/slides',
          headers: { ...XSRF, authorization: wrong },
          payload: { data: [] },
        });
        statuses.push(res.statusCode);
      }
      // The sign-in's limit (EDITOR_SIGNIN_PER_MIN, 10): ten refusals, then 429.
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
      const right = await logged.inject({
        method: 'PUT',
        url: '/api/content/slides',
        headers: AS_ADMIN,
        payload: { data: [] },
      });
      expect(right.statusCode).toBe(429);
      expect(right.json<ApiError>().message).toBe(
        'Trop de jetons refusés depuis cette adresse : réessayez dans une minute.',
      );
      const refusals = lines.filter((line) => line.includes('jeton d’administration refusé'));
      expect(refusals).toHaveLength(10);
      expect(lines.join('')).not.toContain('un-mauvais-jeton');
    } finally {
      await logged.close();
    }
  });

  it('answers an unknown kind or version with a 404 in French', async () => {
    expect((await call({ url: '/api/content/membres/history' })).json<ApiError>().message).toMatch(/^Contenu inconnu/);
    const unknown = await call({ url: '/api/content/team/versions/20260101T000000000Z-000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ApiError>().message).toBe('Cette version n’existe pas.');
    const restore = await call({ method: 'POST', url: '/api/content/team/restore', payload: { id: '../../x' } });
    expect(restore.statusCode).toBe(404);
  });
});

describe('previews', () => {
  it('gives a residence’s entry as visitors would get it, made safe, and saves nothing', async () => {
    const before = await residences();
    const [first] = before;
    if (first === undefined) throw new Error('aucune résidence');
    const res = await call({
      method: 'POST',
      url: `/api/content/residences/${first.id}/preview`,
      payload: {
        entry: { ...first, artist: 'Nom en aperçu', description: 'Dub <em>lent</em><script>alert(1)</script>' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const shown = res.json<{ data: Residence[] }>().data;
    expect(shown).toHaveLength(before.length);
    expect(shown.find(({ id }) => id === first.id)).toMatchObject({
      artist: 'Nom en aperçu',
      description: 'Dub <em>lent</em>',
    });
    expect(await residences()).toEqual(before);
  });

  it('says a schema’s errors field by field, as a save would, for a residence or a whole kind', async () => {
    const [first] = await residences();
    if (first === undefined) throw new Error('aucune résidence');
    const residence = await call({
      method: 'POST',
      url: `/api/content/residences/${first.id}/preview`,
      payload: { entry: { ...first, instagram: 'javascript:alert(1)' } },
    });
    expect(residence.statusCode).toBe(400);
    expect(residence.json<{ problems: string[] }>().problems.join('\n')).toMatch(/champ \/\d+\/instagram/);
    const about = (await app.inject({ url: '/api/content/about' })).json<Record<string, unknown>>();
    const whole = await call({
      method: 'POST',
      url: '/api/content/about/preview',
      payload: { data: { ...about, heading: '' } },
    });
    expect(whole.statusCode).toBe(400);
    expect(whole.json<{ message: string; problems: string[] }>()).toMatchObject({
      message: 'Le contenu a des erreurs : l’aperçu ne peut pas le montrer.',
      problems: [expect.stringMatching(/^about: champ \/heading : /) as unknown],
    });
    const fine = await call({
      method: 'POST',
      url: '/api/content/about/preview',
      payload: { data: { ...about, heading: 'Qui sommes-nous' } },
    });
    expect(fine.json<{ data: { heading: string } }>().data.heading).toBe('Qui sommes-nous');
    expect((await app.inject({ url: '/api/content/about' })).json<{ heading: string }>().heading).toBe(about.heading);
  });

  it('is refused signed out, without the XSRF header, under another id, and for an unknown kind', async () => {
    const [first] = await residences();
    if (first === undefined) throw new Error('aucune résidence');
    const url = `/api/content/residences/${first.id}/preview`;
    const signedOut = await app.inject({ method: 'POST', url, headers: XSRF, payload: { entry: first } });
    expect(signedOut.statusCode).toBe(401);
    const noXsrf = await app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: { entry: first },
    });
    expect(noXsrf.statusCode).toBe(403);
    const other = await call({ method: 'POST', url, payload: { entry: { ...first, id: 'autre' } } });
    expect(other.json<ApiError>().message).toBe(`L’identifiant de la résidence doit rester « ${first.id} ».`);
    const unknown = await call({ method: 'POST', url: '/api/content/comptes/preview', payload: { data: [] } });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('without ADMIN_TOKEN', () => {
  it('takes no token as an editor', async () => {
    const plain = await buildApi({ config: testConfig({ adminToken: null }) });
    try {
      const res = await plain.inject({
        method: 'PUT',
        url: '/api/content/team',
        headers: { ...XSRF, authorization: 'Bearer ' },
        payload: { data: [] },
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await plain.close();
    }
  });
});
