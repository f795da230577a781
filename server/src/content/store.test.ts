import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositorySeeds, seedFile } from './kinds';
import {
  ContentConflict,
  ContentInvalid,
  ContentUnknown,
  ContentUnwritable,
  createContentStore,
  type ContentStore,
} from './store';
import { CONTENT_LINK_RECHECK_MS } from './current';

interface Residence {
  id: string;
  artist: string;
  description: string;
}

let dir: string;
let clock: number;
let store: ContentStore;

const seeds = repositorySeeds();
const repositoryResidences = JSON.parse(readFileSync(seedFile('residences'), 'utf8')) as Residence[];

function open(): ContentStore {
  return createContentStore({ dir, seeds, now: () => new Date((clock += 1000)) });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'contenu-'));
  clock = Date.parse('2026-11-25T10:00:00Z');
  store = open();
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const residences = (s = store) => s.current('residences').data as Residence[];
function withDescription(list: Residence[], id: string, description: string): Residence[] {
  return list.map((entry) => (entry.id === id ? { ...entry, description } : entry));
}

describe('the content store', () => {
  it('serves a copy of its folder (a backup) as it was when copied, whatever was saved since', async () => {
    const [first] = residences();
    if (first === undefined) throw new Error('aucune résidence');
    await store.save('residences', withDescription(residences(), first.id, 'Avant la copie.'), { by: 'camille' });
    const backup = mkdtempSync(join(tmpdir(), 'sauvegarde-'));
    try {
      // `cp -a`, as docs/deploy.md says: the links stay links.
      cpSync(dir, backup, { recursive: true, verbatimSymlinks: true });
      await store.save('residences', withDescription(residences(), first.id, 'Après la copie.'), { by: 'camille' });
      const restored = createContentStore({ dir: backup, seeds, now: () => new Date((clock += 1000)) });
      expect(residences(restored).find(({ id }) => id === first.id)?.description).toBe('Avant la copie.');
      expect(restored.history('residences').map(({ by }) => by)).toEqual(['camille', 'dépôt']);
    } finally {
      rmSync(backup, { recursive: true, force: true });
    }
  });

  it('starts from the repository’s files, as the repository’s version', () => {
    expect(residences()).toEqual(repositoryResidences);
    const [first, ...rest] = store.history('residences');
    expect(first).toMatchObject({ by: 'dépôt', kind: 'residences' });
    expect(rest).toEqual([]);
  });

  it('saves a new version, serves it, and keeps the history newest first with who saved it', async () => {
    const seeded = store.current('residences');
    const [first] = repositoryResidences;
    if (first === undefined) throw new Error('aucune résidence');
    const saved = await store.save('residences', withDescription(residences(), first.id, 'Nouvelle bio.'), {
      by: 'camille',
    });
    expect(residences().find((entry) => entry.id === first.id)?.description).toBe('Nouvelle bio.');
    expect(store.history('residences').map(({ id, by }) => ({ id, by }))).toEqual([
      { id: saved.id, by: 'camille' },
      { id: seeded.id, by: 'dépôt' },
    ]);
    // Another process reading the same folder serves the same version.
    expect(residences(open())).toEqual(residences());
  });

  it('keeps saves made in the same millisecond in their order, the last one current', async () => {
    // A clock that does not move (coarse, or fixed): ids from the time alone would sort at random.
    const still = createContentStore({ dir, seeds, now: () => new Date(clock) });
    const names = ['Un', 'Deux', 'Trois', 'Quatre', 'Cinq'];
    const saved = [];
    for (const name of names) {
      saved.push(
        await still.save(
          'team',
          [{ imagePath: '/assets/images/team/camille.webp', title: name, description: 'Radio' }],
          {
            by: name,
          },
        ),
      );
    }
    expect(
      still
        .history('team')
        .map(({ by }) => by)
        .slice(0, names.length),
    ).toEqual([...names].reverse());
    expect(still.current('team').id).toBe(saved.at(-1)?.id);
  });

  it('refuses what the schema refuses, in French, and changes nothing', async () => {
    const before = store.current('residences');
    const broken = [{ ...repositoryResidences[0], instagram: 'javascript:alert(1)' }];
    await expect(store.save('residences', broken, { by: 'camille' })).rejects.toThrow(ContentInvalid);
    try {
      await store.save('residences', broken, { by: 'camille' });
    } catch (error) {
      expect((error as ContentInvalid).problems).toEqual([
        'residences: champ /0/instagram : forme invalide (attendu : /^https:\\/\\/[^\\s"\'<>]+$/)',
      ]);
    }
    expect(store.current('residences')).toEqual(before);
    expect(store.history('residences')).toHaveLength(1);
  });

  it('restores an earlier version as a new one, saying which', async () => {
    const seeded = store.current('team');
    await store.save('team', (seeded.data as unknown[]).slice(1), { by: 'yanis' });
    const restored = await store.restore('team', seeded.id, 'camille');
    expect(restored).toMatchObject({ by: 'camille', restoredFrom: seeded.id });
    expect(store.current('team').data).toEqual(seeded.data);
    expect(store.history('team')).toHaveLength(3);
    await expect(store.restore('team', '20260101T000000000Z-000000', 'camille')).rejects.toThrow(ContentUnknown);
    await expect(store.restore('team', '../../etc/passwd', 'camille')).rejects.toThrow(ContentUnknown);
  });

  it('tells the second of two editors of one residence, with what is there now, and loses nothing', async () => {
    const base = store.current('residences');
    const [first, second] = repositoryResidences;
    if (first === undefined || second === undefined) throw new Error('deux résidences attendues');
    const one = await store.save(
      'residences',
      withDescription(base.data as Residence[], first.id, 'Texte de Camille.'),
      {
        by: 'camille',
        basedOn: base.id,
        entry: first.id,
      },
    );
    let conflict: unknown;
    try {
      await store.save('residences', withDescription(base.data as Residence[], first.id, 'Texte de Yanis.'), {
        by: 'yanis',
        basedOn: base.id,
        entry: first.id,
      });
    } catch (error) {
      conflict = error;
    }
    expect(conflict).toBeInstanceOf(ContentConflict);
    expect((conflict as ContentConflict).current.id).toBe(one.id);
    expect(residences().find((entry) => entry.id === first.id)?.description).toBe('Texte de Camille.');

    // Another residence, saved from the same old version, does not conflict.
    await store.save('residences', withDescription(residences(), second.id, 'Texte de Léa.'), {
      by: 'lea',
      basedOn: base.id,
      entry: second.id,
    });
    expect(residences().find((entry) => entry.id === first.id)?.description).toBe('Texte de Camille.');
    expect(residences().find((entry) => entry.id === second.id)?.description).toBe('Texte de Léa.');
  });

  it('sees its own saves at once, and a link moved by hand within CONTENT_LINK_RECHECK_MS', async () => {
    jest.useFakeTimers({ doNotFake: ['Date'] });
    try {
      const first = store.current('slides');
      const saved = await store.save('slides', first.data, { by: 'camille' });
      expect(store.current('slides').id).toBe(saved.id);
      // Moved back by hand, as an admin would: believed for a second, then read.
      const link = join(dir, 'slides', 'current');
      symlinkSync(join('versions', `${first.id}.json`), `${link}.main`);
      renameSync(`${link}.main`, link);
      expect(store.current('slides').id).toBe(saved.id);
      jest.advanceTimersByTime(CONTENT_LINK_RECHECK_MS);
      expect(store.current('slides').id).toBe(first.id);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps serving the last good version when the link is moved by hand to a spoiled file', () => {
    const good = store.current('slides');
    const spoiled = '20261125T120000000Z-abcdef';
    writeFileSync(join(dir, 'slides', 'versions', `${spoiled}.json`), '{ pas du JSON');
    const link = join(dir, 'slides', 'current');
    symlinkSync(join('versions', `${spoiled}.json`), `${link}.main`);
    renameSync(`${link}.main`, link);
    expect(store.current('slides')).toEqual(good);
    // A process that never read it takes the newest good one in the folder.
    expect(open().current('slides')).toEqual(good);
  });

  it('says a folder that cannot be written, and keeps serving', async () => {
    const before = store.current('about');
    // A file where the versions' folder was: no user, root included, can write a version there.
    const versions = join(dir, 'about', 'versions');
    renameSync(versions, `${versions}.ailleurs`);
    writeFileSync(versions, '');
    await expect(store.save('about', before.data, { by: 'camille' })).rejects.toThrow(ContentUnwritable);
    expect(store.current('about')).toEqual(before);
  });

  it('serves the repository’s content from memory when a new folder cannot be written', async () => {
    // A file where the folder should be: nothing can be written under it, root included.
    const blocked = join(dir, 'bloque');
    writeFileSync(blocked, '');
    const readOnly = createContentStore({ dir: blocked, seeds });
    expect(readOnly.current('residences').data).toEqual(repositoryResidences);
    await expect(readOnly.save('residences', repositoryResidences, { by: 'camille' })).rejects.toThrow(
      ContentUnwritable,
    );
    expect(readOnly.current('residences').data).toEqual(repositoryResidences);
  });

  it('takes in a change of the repository’s file until a volunteer has saved, and never after', async () => {
    const copies = { ...seeds, team: join(dir, 'team.json') };
    const team = JSON.parse(readFileSync(seedFile('team'), 'utf8')) as { title: string }[];
    const rename = (title: string) => [{ ...team[0], title }, ...team.slice(1)];
    writeFileSync(copies.team, JSON.stringify(team));
    const started = () => createContentStore({ dir, seeds: copies, now: () => new Date((clock += 1000)) });
    expect(started().current('team').data).toEqual(team);

    // A developer changes the file; the next start serves it, as the repository's.
    writeFileSync(copies.team, JSON.stringify(rename('Camille (dépôt)')));
    expect(started().current('team')).toMatchObject({ by: 'dépôt', data: rename('Camille (dépôt)') });

    // A volunteer saves; a later change of the file does not replace their text.
    await started().save('team', rename('Camille (bénévole)'), { by: 'camille' });
    writeFileSync(copies.team, JSON.stringify(rename('Camille (dépôt, plus tard)')));
    expect(started().current('team')).toMatchObject({ by: 'camille', data: rename('Camille (bénévole)') });
  });

  it('takes a newer version saved by another instance, and not an older one', async () => {
    const other = createContentStore({
      dir: mkdtempSync(join(tmpdir(), 'contenu-')),
      seeds,
      now: () => new Date((clock += 1000)),
    });
    const seeded = store.current('releases');
    const newer = await other.save('releases', (seeded.data as unknown[]).slice(0, 3), { by: 'label' });
    expect(store.adopt(newer)).toBe(true);
    expect(store.current('releases').data).toEqual(newer.data);
    expect(store.adopt(seeded)).toBe(false);
    expect(store.current('releases').id).toBe(newer.id);
    rmSync(other.dir, { recursive: true, force: true });
  });
});
