import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { startRedis, type RedisServer } from '../../deploy/redis';
import { until } from '@collectif/shared/testing';
import {
  RecordRefused,
  createRecords,
  recordCost,
  type Records,
  type RecordsOptions,
  type SharedRecords,
} from './records';
import { sealer } from './seal';
import { connectShared, type SharedState } from './shared-state';

// Records in memory or signed in Redis, with a JSON file as their backup (docs/server.md, « Records
// with a backup file »), as a store gets them: here on the proposals' hash of the shared state, to a
// real Redis behind deploy/'s ACL user (a command refused the site fails the test at close).

const SECRET = 'secret-partage-des-enregistrements';
const HASH = 'collectif:proposals:all';
const quiet = { warn: () => undefined };

const rowSchema = v.strictObject({ id: v.pipe(v.string(), v.regex(/^[a-z]{1,10}$/)), text: v.string() });
type Row = v.InferOutput<typeof rowSchema>;

let dir: string;
const opened: { close(): Promise<void> }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'enregistrements-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** Records of rows, their file in this test's folder, its extra field a count of writes. */
function records(
  shared: SharedRecords | null,
  warnings: string[] = [],
  more: Partial<RecordsOptions<Row>> = {},
): Records<Row> & { extra: { saved: number } } {
  const extra = { saved: 0 };
  const made = createRecords<Row>({
    file: join(dir, 'rows.json'),
    rows: 'rows',
    budget: { bytes: 1024 * 1024, recordMax: 64 * 1024 },
    shared,
    read: (value) => (v.is(rowSchema, value) ? value : null),
    idOf: (row) => row.id,
    extra: {
      load: (file) => typeof file.saved === 'number',
      save: () => ({ saved: (extra.saved += 1) }),
    },
    writeAfterMs: 60_000,
    words: {
      fresh: 'les lignes repartent de zéro',
      refused: (count, where) => `${String(count)} ligne(s) refusée(s) (${where})`,
      restored: (count, from) => `${String(count)} ligne(s) reprise(s) (${from})`,
    },
    log: { warn: (message) => warnings.push(message) },
    ...more,
  });
  opened.push(made);
  return Object.assign(made, { extra });
}

describe('without Redis', () => {
  it('keeps the records in memory, and writes them to a file of the server’s user only, read back at start', async () => {
    const store = records(null);
    await store.put({ id: 'un', text: 'premier' });
    await store.put({ id: 'deux', text: 'second' });
    await store.put({ id: 'un', text: 'premier, changé' });
    expect(await store.get('un')).toEqual({ id: 'un', text: 'premier, changé' });
    expect(await store.has('deux')).toBe(true);
    expect(await store.count()).toBe(2);
    expect(await store.remove(['deux', 'trois'])).toBe(1);
    expect(await store.all()).toEqual([{ id: 'un', text: 'premier, changé' }]);
    await store.close();

    const file = join(dir, 'rows.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ rows: [{ id: 'un', text: 'premier, changé' }], saved: 1 });
    const again = records(null);
    expect(await again.all()).toEqual([{ id: 'un', text: 'premier, changé' }]);
  });

  it('leaves out the file’s rows that fail their check, and says so; a file unreadable starts from nothing', async () => {
    const file = join(dir, 'rows.json');
    writeFileSync(
      file,
      JSON.stringify({
        rows: [
          { id: 'bon', text: 'x' },
          { id: '../mauvais', text: 'x' },
        ],
        saved: 3,
      }),
    );
    const warnings: string[] = [];
    expect(await records(null, warnings).all()).toEqual([{ id: 'bon', text: 'x' }]);
    expect(warnings).toEqual([`${file} : 1 ligne(s) refusée(s) (file) à la lecture`]);

    // The extra field refused: the whole file is.
    writeFileSync(file, JSON.stringify({ rows: [{ id: 'bon', text: 'x' }], saved: 'non' }));
    const said: string[] = [];
    expect(await records(null, said).all()).toEqual([]);
    expect(said).toEqual([`${file} illisible : les lignes repartent de zéro`]);
  });
});

describe('bounded by the memory they may take', () => {
  /** A row of `n` characters of text: its cost is 2 × its JSON's length + 512 (`recordCost`). */
  const row = (id: string, n: number): Row => ({ id, text: 'x'.repeat(n) });
  const costOf = (record: Row) => recordCost(JSON.stringify(record));

  it('refuses a record over its own budget, and a new one past the total, keeping every one it had', async () => {
    const budget = { bytes: 3 * costOf(row('a', 100)), recordMax: costOf(row('a', 200)) };
    const store = records(null, [], { budget });
    expect(store.fits(row('grand', 300))).toBe('too_large');
    await expect(store.put(row('grand', 300))).rejects.toEqual(new RecordRefused('too_large'));
    for (const id of ['a', 'b', 'c']) await store.put(row(id, 100));
    expect(store.held()).toBe(budget.bytes);
    expect(store.fits(row('d', 100))).toBe('full');
    await expect(store.put(row('d', 100))).rejects.toEqual(new RecordRefused('full'));
    // Replacing one with one no larger still fits; a removal makes room.
    await store.put(row('a', 90));
    await store.remove(['b']);
    await store.put(row('d', 100));
    expect((await store.all()).map((record) => record.id).sort()).toEqual(['a', 'c', 'd']);
  });

  it('starts with what fits of a file larger than it may hold, and sets the rest aside rather than lose it', async () => {
    const file = join(dir, 'rows.json');
    const rows = ['a', 'b', 'c', 'd', 'e'].map((id) => row(id, 100));
    writeFileSync(file, JSON.stringify({ rows, saved: 1 }));
    const warnings: string[] = [];
    const store = records(null, warnings, { budget: { bytes: 2 * costOf(row('a', 100)), recordMax: 64 * 1024 } });
    expect((await store.all()).map((record) => record.id)).toEqual(['a', 'b']);
    // Written whole (a temporary file, then renamed): the file's own name once it is there.
    const asideName = () => readdirSync(dir).find((name) => /^rows\.json\.beyond-\d+\.json$/.test(name));
    await until(() => asideName() !== undefined, { what: 'les lignes mises de côté' });
    const aside = asideName() ?? '';
    expect(JSON.parse(readFileSync(join(dir, aside), 'utf8'))).toEqual({ rows: rows.slice(2) });
    expect(statSync(join(dir, aside)).mode & 0o777).toBe(0o600);
    expect(warnings[0]).toMatch(/3 ligne\(s\) refusée\(s\) \(file\) au-delà de la mémoire permise, mis de côté dans /);
  });

  it('does not read a file larger than the budget itself: sets it aside whole and starts with none', async () => {
    const file = join(dir, 'rows.json');
    const text = JSON.stringify({ rows: [row('a', 5_000)], saved: 1 });
    writeFileSync(file, text);
    const warnings: string[] = [];
    const store = records(null, warnings, { budget: { bytes: 1_000, recordMax: 1_000 } });
    expect(await store.all()).toEqual([]);
    const aside = readdirSync(dir).find((name) => name.startsWith('rows.json.beyond-')) ?? '';
    expect(readFileSync(join(dir, aside), 'utf8')).toBe(text);
    expect(warnings[0]).toMatch(
      /plus grand que la mémoire permise : mis de côté dans .*, les lignes repartent de zéro$/,
    );
  });
});

describe('with Redis', () => {
  let redis: RedisServer;
  let states: SharedState[];

  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  beforeEach(() => {
    states = [];
  });
  afterEach(async () => {
    await Promise.all(states.map((state) => state.close()));
    await redis.run('FLUSHALL');
  });
  afterAll(async () => {
    await redis.close();
  });

  const shared = async () => {
    const state = await connectShared(redis.url, quiet, { secret: SECRET });
    states.push(state);
    return state.proposals;
  };

  it('shares the records between instances, each file following Redis as its backup', async () => {
    const [a, b] = [records(await shared()), records(await shared(), [], { file: join(dir, 'b.json') })];
    await a.put({ id: 'un', text: 'de a' });
    expect(await b.get('un')).toEqual({ id: 'un', text: 'de a' });
    await b.put({ id: 'deux', text: 'de b' });
    await a.backup();
    const written = JSON.parse(readFileSync(join(dir, 'rows.json'), 'utf8')) as { rows: Row[] };
    expect(written.rows.map((row) => row.id).sort()).toEqual(['deux', 'un']);
    expect(statSync(join(dir, 'rows.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses a value it did not sign, signed with another key, or signed but not of its form', async () => {
    const warnings: string[] = [];
    const store = records(await shared(), warnings);
    await store.put({ id: 'vrai', text: 'signé' });
    await redis.run('HSET', HASH, 'nu', JSON.stringify({ id: 'nu', text: 'sans signature' }));
    await redis.run(
      'HSET',
      HASH,
      'autre',
      sealer('une-autre-cle').seal(HASH, JSON.stringify({ id: 'autre', text: 'x' })),
    );
    await redis.run('HSET', HASH, 'forme', sealer(SECRET).seal(HASH, JSON.stringify({ id: 'forme', text: 1 })));
    expect(await store.all()).toEqual([{ id: 'vrai', text: 'signé' }]);
    expect(warnings).toEqual(['Redis : 3 ligne(s) refusée(s) (redis) à la lecture']);
    expect(await store.get('nu')).toBeNull();
    expect(await store.get('autre')).toBeNull();
    expect(await store.get('forme')).toBeNull();
  });

  it('refuses a signed value copied under another record’s id, and counts the copy once', async () => {
    const warnings: string[] = [];
    const store = records(await shared(), warnings);
    await store.put({ id: 'vrai', text: 'signé' });
    await store.put({ id: 'autre', text: 'le sien' });
    // Whoever may write to Redis, without the secret, copies one signed value over another id.
    const copied = (await redis.run('HGET', HASH, 'vrai')) as string;
    await redis.run('HSET', HASH, 'autre', copied);
    expect(await store.get('autre')).toBeNull();
    expect(await store.get('vrai')).toEqual({ id: 'vrai', text: 'signé' });
    expect(await store.all()).toEqual([{ id: 'vrai', text: 'signé' }]);
    expect(warnings).toEqual(['Redis : 1 ligne(s) refusée(s) (redis) à la lecture']);
  });

  it('gives the file to a Redis found empty at start, and its last backup to a Redis emptied since', async () => {
    const first = records(await shared());
    await first.put({ id: 'un', text: 'gardé' });
    await first.close();
    await redis.run('FLUSHALL');

    // A new instance, Redis empty and the file full: the file is given back.
    const warnings: string[] = [];
    const again = records(await shared(), warnings);
    expect(await again.all()).toEqual([{ id: 'un', text: 'gardé' }]);
    expect(warnings).toEqual(['Redis vide : 1 ligne(s) reprise(s) (file) du fichier']);
    await again.put({ id: 'deux', text: 'ajouté' });
    await again.backup();

    // Redis emptied while it runs: its next backup gives Redis what it last saw, the file kept.
    await redis.run('FLUSHALL');
    await again.backup();
    expect(warnings).toContain('Redis vide : 2 ligne(s) reprise(s) (backup) de la dernière sauvegarde');
    expect((await again.all()).map((row) => row.id).sort()).toEqual(['deux', 'un']);
    const written = JSON.parse(readFileSync(join(dir, 'rows.json'), 'utf8')) as { rows: Row[] };
    expect(written.rows).toHaveLength(2);
  });

  it('gives a Redis rebuilt from nothing the union of what each instance and each file kept, until its first write', async () => {
    // Two instances, each writing one row; only the first has read Redis again (its backup).
    const a = records(await shared());
    const b = records(await shared(), [], { file: join(dir, 'b.json') });
    await a.put({ id: 'un', text: 'de a' });
    await b.put({ id: 'deux', text: 'de b' });
    await a.backup();
    await redis.run('FLUSHALL');

    // The second gives back first, from a memory of its own row only…
    await b.backup();
    expect((await b.all()).map((row) => row.id)).toEqual(['deux']);
    // …and a third instance, started with the first's file, still gives back the rest.
    const warnings: string[] = [];
    const c = records(await shared(), warnings);
    expect((await c.all()).map((row) => row.id).sort()).toEqual(['deux', 'un']);
    expect(warnings).toEqual(['Redis vide : 1 ligne(s) reprise(s) (file) du fichier']);
    // None written over: the row the second gave back is its own.
    expect(await c.get('deux')).toEqual({ id: 'deux', text: 'de b' });
    // The second's next backup follows the union.
    await b.backup();
    const written = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')) as { rows: Row[] };
    expect(written.rows.map((row) => row.id).sort()).toEqual(['deux', 'un']);

    // After the first write, a memory that lacks a row no longer brings it back.
    await c.remove(['un']);
    await a.backup();
    expect((await c.all()).map((row) => row.id)).toEqual(['deux']);
  });
});
