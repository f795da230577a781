import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ENTRY_HISTORY_SCAN,
  entryHistoryPage,
  HISTORY_PAGE_MAX,
  historyPage,
  pruneVersions,
  UNDO_KEPT,
  versionIds,
} from './history';
import { repositorySeeds } from './kinds';
import { ContentUnknown, createContentStore, type ContentStore } from './store';

// A kind's history read in pages from its folder, one residence's changes alone, and the old
// versions pruned (docs/content.md, « The history, in pages », « Pruning »).

interface Residence {
  id: string;
  description: string;
}

const DAY = 86_400_000;
let dir: string;
let clock: number;
let store: ContentStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'historique-'));
  clock = Date.parse('2026-11-25T10:00:00Z');
  store = createContentStore({ dir, seeds: repositorySeeds(), now: () => new Date((clock += 1000)) });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const member = (title: string) => ({ imagePath: '/assets/images/team/camille.webp', title, description: 'Radio' });

/** `count` saves of the team, by `by`; their versions, oldest first. */
async function saves(count: number, by = 'camille') {
  const saved = [];
  for (let i = 0; i < count; i += 1) saved.push(await store.save('team', [member(`Membre ${String(i)}`)], { by }));
  return saved;
}

async function describeResidence(id: string, description: string, by: string) {
  const list = store.current('residences').data as Residence[];
  return store.save(
    'residences',
    list.map((entry) => (entry.id === id ? { ...entry, description } : entry)),
    { by, entry: id },
  );
}

describe('the history, in pages', () => {
  it('gives the versions newest first, a page at a time, each with who saved it and when', async () => {
    store.current('team');
    await saves(24);
    const all = store.history('team');
    expect(all).toHaveLength(25);

    const first = await historyPage(dir, 'team', { limit: 10 });
    expect(first.versions).toEqual(all.slice(0, 10));
    expect(first.next).toBe(all[9]?.id);
    const second = await historyPage(dir, 'team', { limit: 10, before: first.next ?? '' });
    expect(second.versions).toEqual(all.slice(10, 20));
    const last = await historyPage(dir, 'team', { limit: 10, before: second.next ?? '' });
    expect(last.versions).toEqual(all.slice(20));
    expect(last.versions.at(-1)?.by).toBe('dépôt');
    expect(last.next).toBeNull();
  });

  it('gives at most 50 versions a page, 20 when not told', async () => {
    store.current('team');
    await saves(60);
    expect((await historyPage(dir, 'team', {})).versions).toHaveLength(20);
    const most = await historyPage(dir, 'team', { limit: 500 });
    expect(most.versions).toHaveLength(HISTORY_PAGE_MAX);
    expect(most.next).toBe(most.versions.at(-1)?.id);
  });

  it('lists a version from its file’s head, without reading its content', async () => {
    const [saved] = await saves(1, 'yanis');
    if (saved === undefined) throw new Error('aucune version');
    // The content cut short after its first bytes: the version cannot be read whole any more.
    const file = join(dir, 'team', 'versions', `${saved.id}.json`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.indexOf('"data"') + 20));
    expect(store.history('team').map(({ by }) => by)).toEqual(['dépôt']);
    expect((await historyPage(dir, 'team', {})).versions).toEqual([
      { id: saved.id, kind: 'team', savedAt: saved.savedAt, by: 'yanis' },
      expect.objectContaining({ by: 'dépôt' }),
    ]);
  });

  it('gives, for one residence, only the versions that changed it', async () => {
    const [one, two] = store.current('residences').data as Residence[];
    if (one === undefined || two === undefined) throw new Error('deux résidences attendues');
    const seed = store.current('residences').id;
    const mine = await describeResidence(one.id, 'Première.', one.id);
    await describeResidence(two.id, 'Ailleurs.', 'camille');
    const again = await describeResidence(one.id, 'Seconde.', 'camille');
    await describeResidence(two.id, 'Ailleurs encore.', 'camille');
    // Removed from the list by an admin: a change of that residence too.
    const list = store.current('residences').data as Residence[];
    const removed = await store.save(
      'residences',
      list.filter((entry) => entry.id !== one.id),
      { by: 'admin' },
    );

    const page = await entryHistoryPage(dir, 'residences', one.id, {});
    expect(page.versions.map(({ id }) => id)).toEqual([removed.id, again.id, mine.id, seed]);
    expect(page.next).toBeNull();
    const firstTwo = await entryHistoryPage(dir, 'residences', one.id, { limit: 2 });
    expect(firstTwo.versions.map(({ id }) => id)).toEqual([removed.id, again.id]);
    const rest = await entryHistoryPage(dir, 'residences', one.id, { limit: 2, before: firstTwo.next ?? '' });
    expect(rest.versions.map(({ id }) => id)).toEqual([mine.id, seed]);
  });
});

describe('one residence’s changes', () => {
  it('open at most ENTRY_HISTORY_SCAN versions a page, and say where to go on', async () => {
    const [one, two] = store.current('residences').data as Residence[];
    if (one === undefined || two === undefined) throw new Error('deux résidences attendues');
    const seed = store.current('residences').id;
    for (let i = 0; i < ENTRY_HISTORY_SCAN + 5; i += 1)
      await describeResidence(two.id, `Version ${String(i)}.`, 'camille');
    const ids = await versionIds(dir, 'residences');

    const first = await entryHistoryPage(dir, 'residences', one.id, {});
    expect(first).toEqual({ versions: [], next: ids[ENTRY_HISTORY_SCAN - 1] });
    const second = await entryHistoryPage(dir, 'residences', one.id, { before: first.next ?? '' });
    expect(second.versions.map(({ id }) => id)).toEqual([seed]);
    expect(second.next).toBeNull();
  });
});

describe('pruning', () => {
  const rule = { kept: 12, maxAgeMs: 365 * DAY };

  it('deletes the versions past the kept count, oldest first; a kept one is restored, a pruned one is unknown', async () => {
    const seed = store.current('team').id;
    const saved = await saves(15);
    const ids = await versionIds(dir, 'team');
    expect(ids).toHaveLength(16);
    const deleted = await pruneVersions(dir, 'team', store.current('team'), { ...rule, now: clock });
    expect(deleted).toEqual([seed, saved[0]?.id, saved[1]?.id, saved[2]?.id]);
    expect(await versionIds(dir, 'team')).toEqual(ids.slice(0, 12));

    expect(() => store.version('team', seed)).toThrow(ContentUnknown);
    await expect(store.restore('team', seed, 'camille')).rejects.toBeInstanceOf(ContentUnknown);
    const kept = saved[3];
    if (kept === undefined) throw new Error('version attendue');
    const restored = await store.restore('team', kept.id, 'camille');
    expect(restored.restoredFrom).toBe(kept.id);
    expect(store.current('team').data).toEqual(kept.data);
  });

  it('deletes the versions older than the age past the ten newest, never the one the current restores', async () => {
    const seed = store.current('team').id;
    const old = await saves(14);
    const restoredFrom = old[1];
    if (restoredFrom === undefined) throw new Error('version attendue');
    // A year and more later, the team puts an old version back online.
    clock += 400 * DAY;
    const restored = await store.restore('team', restoredFrom.id, 'camille');
    const ids = await versionIds(dir, 'team');

    const deleted = await pruneVersions(dir, 'team', store.current('team'), {
      kept: 20,
      maxAgeMs: rule.maxAgeMs,
      now: clock,
    });
    // The ten newest stay, old as they are (the last changes can be undone), with the one the
    // current version restores; the others are older than a year.
    const left = await versionIds(dir, 'team');
    expect(left).toEqual([...ids.slice(0, UNDO_KEPT), restoredFrom.id]);
    expect(left[0]).toBe(restored.id);
    expect(deleted).toEqual([seed, old[0]?.id, ...old.slice(2, 5).map(({ id }) => id)]);
  });

  it('never deletes the current version, however old and far down', async () => {
    const seed = store.current('team');
    await saves(14);
    const deleted = await pruneVersions(dir, 'team', seed, { kept: 10, maxAgeMs: DAY, now: clock + 2 * DAY });
    expect(deleted).toHaveLength(4);
    expect(deleted).not.toContain(seed.id);
    expect(store.version('team', seed.id).by).toBe('dépôt');
  });
});
