import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { until } from '@collectif/shared/testing';
import { png } from '../testing/pictures';
import type { ApiConfig } from '../../api/env';
import { buildApi, listen, testConfig } from '../../api/testing/fixtures';
import { editorClient } from '../../api/testing/editors';

// An editor's bounds (docs/content.md, « Bounds »), over real HTTP on loopback: writes, previews
// and uploads limited per account whatever its address; the history in pages; old versions pruned
// while restores of the kept ones go on; the uploads an instance holds at once; a resident's
// history, restore and residence removed by an admin.

const TOKEN = 'jeton-admin-du-test-de-24-car';
const RESIDENCE = 'axonberg';

interface Residence {
  id: string;
  description: string;
}
interface Record {
  id: string;
  by: string;
  restoredFrom?: string;
}
interface Page {
  current: string;
  versions: Record[];
  next: string | null;
}

let app: FastifyInstance;
let base: string;

async function start(overrides: Partial<ApiConfig> = {}): Promise<void> {
  app = await buildApi({ config: testConfig({ adminToken: TOKEN, ...overrides }) });
  base = await listen(app);
}

afterEach(async () => {
  jest.restoreAllMocks();
  await app.close();
});

const { send, volunteer, asAdmin: AS_ADMIN } = editorClient(() => ({ app, base }), TOKEN);

const residences = async () => (await (await send('/content/residences')).json()) as Residence[];
const team = async () => (await (await send('/content/team')).json()) as { title: string; description: string }[];
const history = async (kind: string, query = '', as: object = AS_ADMIN) =>
  (await (await send(`/content/${kind}/history${query}`, { as })).json()) as Page;

/** The residences with one of them described anew. */
async function described(id: string, description: string): Promise<Residence[]> {
  return (await residences()).map((entry) => (entry.id === id ? { ...entry, description } : entry));
}

describe('an editor account’s limits, per minute and whatever its address', () => {
  it('refuses past 20 saves and restores a minute: 60 saves in a row are not all accepted; another account still saves', async () => {
    await start();
    const seeded = (await history('team')).current;
    const [first] = await team();
    if (first === undefined) throw new Error('équipe vide');
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const saved = await send('/content/team', {
        method: 'PUT',
        body: { data: [{ ...first, description: `Essai ${String(i)}` }] },
      });
      statuses.push(saved.status);
    }
    expect(statuses).toEqual([...Array<number>(20).fill(200), ...Array<number>(40).fill(429)]);
    const restore = await send('/content/team/restore', { method: 'POST', body: { id: seeded } });
    expect(restore.status).toBe(429);
    expect(Number(restore.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(restore.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(((await restore.json()) as ApiError).message).toMatch(
      /^Trop d’enregistrements pour ce compte en une minute : réessayez dans \d+ s\.$/,
    );
    // Only the 20 accepted were saved, and the last of them is served.
    expect((await history('team', '?limit=50')).versions).toHaveLength(21);
    expect((await team())[0]?.description).toBe('Essai 19');

    // Another account, from the same address, is counted apart.
    const resident = await volunteer('residence', 'resident-axonberg', RESIDENCE);
    const own = (await residences()).find(({ id }) => id === RESIDENCE);
    const mine = await send(`/content/residences/${RESIDENCE}`, {
      method: 'PUT',
      as: resident,
      body: { entry: { ...own, description: 'Ma bio.' } },
    });
    expect(mine.status).toBe(200);

    // A minute later, the first account saves again.
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    expect((await send('/content/team/restore', { method: 'POST', body: { id: seeded } })).status).toBe(200);
  });

  it('refuses past 60 previews a minute', async () => {
    await start();
    const about = (await (await send('/content/about')).json()) as object;
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) {
      statuses.push((await send('/content/about/preview', { method: 'POST', body: { data: about } })).status);
    }
    expect(statuses).toEqual([...Array<number>(60).fill(200), 429]);
    const refused = await send('/content/about/preview', { method: 'POST', body: { data: about } });
    expect(((await refused.json()) as ApiError).message).toMatch(/^Trop d’aperçus pour ce compte en une minute/);
  });

  it('refuses past 10 uploads a minute, before reading the picture', async () => {
    await start();
    const upload = () =>
      fetch(`${base}/api/content/pictures?purpose=cover`, {
        method: 'POST',
        headers: { ...AS_ADMIN, 'content-type': 'application/octet-stream' },
        body: 'Bonjour',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await upload()).status);
    // Refused uploads count: each made the server read a body.
    expect(statuses).toEqual(Array<number>(10).fill(415));
    const refused = await upload();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as ApiError).message).toMatch(
      /^Trop d’images envoyées pour ce compte en une minute : réessayez dans \d+ s\.$/,
    );
  });
});

describe('the history, in pages', () => {
  it('answers a page and the cursor of the next one, 20 versions when not told, at most 50', async () => {
    await start();
    const [first] = await team();
    if (first === undefined) throw new Error('équipe vide');
    for (let i = 0; i < 12; i += 1) {
      await send('/content/team', { method: 'PUT', body: { data: [{ ...first, description: `Essai ${String(i)}` }] } });
    }
    const whole = await history('team');
    expect(whole.versions).toHaveLength(13);
    expect(whole.next).toBeNull();
    expect(whole.current).toBe(whole.versions[0]?.id);

    const seen: string[] = [];
    let page = await history('team', '?limit=5');
    seen.push(...page.versions.map(({ id }) => id));
    while (page.next !== null) {
      expect(page.versions).toHaveLength(5);
      page = await history('team', `?limit=5&before=${page.next}`);
      seen.push(...page.versions.map(({ id }) => id));
    }
    expect(seen).toEqual(whole.versions.map(({ id }) => id));
    expect(page.versions.at(-1)?.by).toBe('dépôt');

    const tooMany = await send('/content/team/history?limit=51');
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as ApiError).message).toMatch(/« limit ».*valeur maximale 50/);
    expect((await send('/content/team/history?before=..%2F..%2Fx')).status).toBe(400);
  });
});

describe('old versions', () => {
  it('are pruned past the kept count: a pruned one answers 404 in French, a kept one is restored', async () => {
    await start({ contentVersions: { kept: 10, maxAgeMs: 365 * 86_400_000 } });
    const seeded = (await history('team')).current;
    const [first] = await team();
    if (first === undefined) throw new Error('équipe vide');
    for (let i = 0; i < 12; i += 1) {
      const saved = await send('/content/team', {
        method: 'PUT',
        body: { data: [{ ...first, description: `Essai ${String(i)}` }] },
      });
      expect(saved.status).toBe(200);
    }
    // Pruned after each save, in the background.
    await until(async () => (await history('team')).versions.length === 10, { what: 'dix versions gardées' });
    const kept = (await history('team')).versions;
    expect(kept.map(({ id }) => id)).not.toContain(seeded);

    const pruned = await send('/content/team/restore', { method: 'POST', body: { id: seeded } });
    expect(pruned.status).toBe(404);
    expect(((await pruned.json()) as ApiError).message).toBe('Cette version n’existe pas.');
    expect((await send(`/content/team/versions/${seeded}`)).status).toBe(404);

    const oldest = kept.at(-1);
    if (oldest === undefined) throw new Error('version attendue');
    const restored = await send('/content/team/restore', { method: 'POST', body: { id: oldest.id } });
    expect(restored.status).toBe(200);
    expect(((await restored.json()) as { version: Record }).version.restoredFrom).toBe(oldest.id);
    expect((await team())[0]?.description).toBe('Essai 2');
  });
});

/** An upload whose body is sent in part, then whole when `finish` is called. */
function heldUpload(body: Buffer): { answered: Promise<number>; finish: () => void } {
  let finish: () => void = () => undefined;
  const answered = new Promise<number>((resolve, reject) => {
    const sending = httpRequest(
      `${base}/api/content/pictures?purpose=cover`,
      {
        method: 'POST',
        headers: { ...AS_ADMIN, 'content-type': 'application/octet-stream', 'content-length': String(body.length) },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          resolve(response.statusCode ?? 0);
        });
      },
    );
    sending.on('error', reject);
    sending.write(body.subarray(0, 100));
    finish = () => {
      sending.end(body.subarray(100));
    };
  });
  return { answered, finish };
}

describe('the uploads an instance holds', () => {
  it('are at most CONTENT_PICTURE_UPLOADS: past them, 503 with Retry-After in French, until one is done', async () => {
    const defaults = testConfig();
    await start({ limits: { ...defaults.limits, pictureUploadsAtOnce: 2 } });
    const upload = async () =>
      fetch(`${base}/api/content/pictures?purpose=cover`, {
        method: 'POST',
        headers: { ...AS_ADMIN, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(await png(320, 200)),
      });
    const first = heldUpload(await png(300, 200));
    const second = heldUpload(await png(310, 200));
    await until(() => app.pictures.uploading === 2, { what: 'deux envois en cours' });

    const refused = await upload();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(await refused.json()).toEqual({
      error: 'busy',
      message: 'Trop d’images sont en cours d’envoi sur le site : réessayez dans quelques secondes.',
    });

    first.finish();
    second.finish();
    expect([await first.answered, await second.answered]).toEqual([201, 201]);
    await until(() => app.pictures.uploading === 0, { what: 'les places rendues' });
    expect((await upload()).status).toBe(201);
  });
});

describe('a resident', () => {
  it('sees only the versions that changed their residence, and no other editor’s name', async () => {
    await start();
    const resident = await volunteer('residence', 'resident-axonberg', RESIDENCE);
    const other = (await residences()).find(({ id }) => id !== RESIDENCE);
    if (other === undefined) throw new Error('une autre résidence attendue');
    const byAdmin = await send(`/content/residences/${RESIDENCE}`, {
      method: 'PUT',
      body: { entry: (await described(RESIDENCE, 'Par l’admin.')).find(({ id }) => id === RESIDENCE) },
    });
    const elsewhere = await send(`/content/residences/${other.id}`, {
      method: 'PUT',
      body: { entry: (await described(other.id, 'Une autre.')).find(({ id }) => id === other.id) },
    });
    const mine = await send(`/content/residences/${RESIDENCE}`, {
      method: 'PUT',
      as: resident,
      body: { entry: (await described(RESIDENCE, 'Par moi.')).find(({ id }) => id === RESIDENCE) },
    });
    const ids = await Promise.all(
      [byAdmin, elsewhere, mine].map(async (res) => ((await res.json()) as { version: Record }).version.id),
    );

    const seen = await history('residences', '', resident);
    expect(seen.versions.map(({ id, by }) => ({ id, by }))).toEqual([
      { id: ids[2], by: 'resident-axonberg' },
      { id: ids[0], by: 'un autre éditeur' },
      { id: expect.any(String) as unknown, by: 'dépôt' },
    ]);
    expect(JSON.stringify(seen)).not.toContain('admin (jeton)');
    // An admin sees every version, with its editor.
    expect((await history('residences')).versions.map(({ by }) => by)).toEqual([
      'resident-axonberg',
      'admin (jeton)',
      'admin (jeton)',
      'dépôt',
    ]);

    // A version opened: their residence alone, no other editor named.
    const version = (await (await send(`/content/residences/versions/${String(ids[1])}`, { as: resident })).json()) as {
      by: string;
      data: Residence[];
    };
    expect(version.by).toBe('un autre éditeur');
    expect(version.data.map(({ id }) => id)).toEqual([RESIDENCE]);

    // A conflict says who in the same words.
    const stale = await send(`/content/residences/${RESIDENCE}`, {
      method: 'PUT',
      as: resident,
      body: {
        basedOn: ids[1],
        entry: (await described(RESIDENCE, 'Sur une version ancienne.')).find(({ id }) => id === RESIDENCE),
      },
    });
    expect(stale.status).toBe(409);
    await send(`/content/residences/${RESIDENCE}`, {
      method: 'PUT',
      body: { entry: (await described(RESIDENCE, 'Encore l’admin.')).find(({ id }) => id === RESIDENCE) },
    });
    const conflict = await send(`/content/residences/${RESIDENCE}`, {
      method: 'PUT',
      as: resident,
      body: {
        basedOn: ids[2],
        entry: (await described(RESIDENCE, 'Ma version.')).find(({ id }) => id === RESIDENCE),
      },
    });
    expect(conflict.status).toBe(409);
    const said = (await conflict.json()) as { message: string; current: { by: string; data: Residence[] } };
    expect(said.message).toMatch(/^Modifié entre-temps par un autre éditeur :/);
    expect(said.current.by).toBe('un autre éditeur');
    expect(said.current.data.map(({ id }) => id)).toEqual([RESIDENCE]);
  });

  it('restores their own residence from an earlier version, leaving the others as they are, never the whole list', async () => {
    await start();
    const resident = await volunteer('residence', 'resident-axonberg', RESIDENCE);
    const save = async (description: string) =>
      (
        (await (
          await send(`/content/residences/${RESIDENCE}`, {
            method: 'PUT',
            as: resident,
            body: { entry: (await described(RESIDENCE, description)).find(({ id }) => id === RESIDENCE) },
          })
        ).json()) as { version: Record }
      ).version;
    const first = await save('Première.');
    await save('Seconde.');
    const other = (await residences()).find(({ id }) => id !== RESIDENCE);
    if (other === undefined) throw new Error('une autre résidence attendue');
    await send(`/content/residences/${other.id}`, {
      method: 'PUT',
      body: { entry: (await described(other.id, 'Changée après.')).find(({ id }) => id === other.id) },
    });

    const whole = await send('/content/residences/restore', { method: 'POST', as: resident, body: { id: first.id } });
    expect(whole.status).toBe(403);
    const restored = await send(`/content/residences/${RESIDENCE}/restore`, {
      method: 'POST',
      as: resident,
      body: { id: first.id },
    });
    expect(restored.status).toBe(200);
    expect(((await restored.json()) as { version: Record }).version).toMatchObject({
      by: 'resident-axonberg',
      restoredFrom: first.id,
    });
    const now = await residences();
    expect(now.find(({ id }) => id === RESIDENCE)?.description).toBe('Première.');
    expect(now.find(({ id }) => id === other.id)?.description).toBe('Changée après.');

    const elsewhere = await send(`/content/residences/${other.id}/restore`, {
      method: 'POST',
      as: resident,
      body: { id: first.id },
    });
    expect(elsewhere.status).toBe(403);
  });

  it('cannot bring back their residence once an admin removed it: no save, preview or restore', async () => {
    await start();
    const resident = await volunteer('residence', 'resident-axonberg', RESIDENCE);
    const before = (await history('residences', '', resident)).current;
    const own = (await residences()).find(({ id }) => id === RESIDENCE);
    const removed = await send('/content/residences', {
      method: 'PUT',
      body: { data: (await residences()).filter(({ id }) => id !== RESIDENCE) },
    });
    expect(removed.status).toBe(200);

    const refusal = 'Cette résidence a été retirée du site : seul un administrateur peut la remettre en ligne.';
    for (const [path, body] of [
      [`/content/residences/${RESIDENCE}`, { entry: { ...own, description: 'De retour.' } }],
      [`/content/residences/${RESIDENCE}`, { entry: { ...own, description: 'De retour.' }, basedOn: before }],
      [`/content/residences/${RESIDENCE}/preview`, { entry: own }],
      [`/content/residences/${RESIDENCE}/restore`, { id: before }],
    ] as const) {
      const res = await send(path, { method: path.endsWith(RESIDENCE) ? 'PUT' : 'POST', as: resident, body });
      expect([path, res.status]).toEqual([path, 403]);
      expect(((await res.json()) as ApiError).message).toBe(refusal);
    }
    expect((await residences()).map(({ id }) => id)).not.toContain(RESIDENCE);

    // An admin may put it back.
    const back = await send(`/content/residences/${RESIDENCE}/restore`, { method: 'POST', body: { id: before } });
    expect(back.status).toBe(200);
    expect((await residences()).map(({ id }) => id)).toContain(RESIDENCE);
  });
});
