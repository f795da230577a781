import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { PARTS, type PartName } from '@collectif/shared';
import { pagesJson, until } from '@collectif/shared/testing';
import type { SharedLive } from '../instances/shared-state';
import { writeUnder } from '../site/render/fixtures';
import { ARCHIVES_KEPT, createDeploys, type DeploysShared } from './deploys';

// What the deploys keep in Redis (docs/deploy.md, « Redis »): each part's live version, and the
// archives of the live one and the two before it, no more, so that an instance that lacks a
// version's folder can still roll back to it. Redis here is the store the deploys are given
// (instances/shared-state.ts keeps it in Redis itself; server/deploy/ tries the real one).

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deploys-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Redis as the deploys see it: live versions, archives by part and id, the channel. */
function fakeRedis() {
  const archives = new Map<string, Buffer>();
  const lives = new Map<string, SharedLive>();
  const listeners: ((live: SharedLive) => void)[] = [];
  const shared: DeploysShared = {
    publish(live, archive) {
      if (archive !== undefined) archives.set(`${live.part}:${live.id}`, Buffer.from(archive));
      lives.set(live.part, live);
      for (const listener of listeners) listener(live);
      return Promise.resolve();
    },
    live: () => Promise.resolve([...lives.values()]),
    archive: (part, id) => Promise.resolve(archives.get(`${part}:${id}`) ?? null),
    listen(listener) {
      listeners.push(listener);
    },
    forget(part, ids) {
      for (const id of ids) archives.delete(`${part}:${id}`);
      return Promise.resolve();
    },
  };
  /** The ids of a part's archives Redis holds. */
  const held = (part: string) =>
    [...archives.keys()].filter((key) => key.startsWith(`${part}:`)).map((key) => key.slice(part.length + 1));
  return { shared, held };
}

/** An instance's deploys, on a DEPLOY_ROOT of its own, the parts as built beside it. */
function instance(name: string, shared: DeploysShared) {
  const built = join(root, name, 'built');
  const builtDirs = Object.fromEntries(PARTS.map(({ name: part, folder }) => [part, join(built, folder)])) as Record<
    PartName,
    string
  >;
  for (const dir of Object.values(builtDirs)) writeUnder(dir, '.garde', '');
  writeUnder(
    builtDirs.shell,
    'part.json',
    JSON.stringify({ name: 'shell', contract: '2.4.0', builtAt: '2026-11-20', commit: null }),
  );
  return createDeploys({
    settings: { tokens: new Map(), root: join(root, name, 'deploys'), keep: 5 },
    builtDirs,
    shared,
    log: { info: () => undefined, warn: () => undefined },
    tryPart: () => Promise.resolve({ ok: true, version: 'essai', pages: 1 }),
    sitePages: () => Promise.resolve([]),
  });
}

/** Label's dist/ packed, its remote entry saying which build it is. */
async function label(build: string): Promise<Uint8Array> {
  const dir = mkdtempSync(join(root, 'dist-'));
  writeUnder(
    dir,
    'part.json',
    JSON.stringify({ name: 'label', contract: '^2.4.0', builtAt: '2026-11-20', commit: null }),
  );
  writeUnder(
    dir,
    'mf-manifest.json',
    JSON.stringify({ name: 'collectif_label', metaData: { remoteEntry: { name: 'remoteEntry.js' } } }),
  );
  writeUnder(dir, 'remoteEntry.js', `// ${build}`);
  writeUnder(dir, 'pages.json', pagesJson('mf-label'));
  const packed = await tar.c({ cwd: dir, gzip: true }, ['.']).concat();
  rmSync(dir, { recursive: true });
  return packed;
}

describe('the archives Redis keeps', () => {
  it("are the live version's and the two before it, dropped at each deploy", async () => {
    expect(ARCHIVES_KEPT).toBe(3);
    const redis = fakeRedis();
    const first = instance('premiere', redis.shared);
    const versions: string[] = [];
    for (const build of ['v1', 'v2', 'v3', 'v4', 'v5']) {
      const outcome = await first.deploy('label', await label(build), 'équipe label');
      if (!outcome.ok) throw new Error(outcome.message);
      versions.push(outcome.version);
      expect(redis.held('label').sort()).toEqual(versions.slice(-3).sort());
    }

    // An instance that lacks every folder (another machine, a new one) rolls back with the first:
    // the two versions before the live one are still in Redis.
    const other = instance('autre', redis.shared);
    await other.follow();
    const served = () => readFileSync(join(other.liveDirs().label, 'remoteEntry.js'), 'utf8');
    expect(served()).toBe('// v5');
    for (const build of ['v4', 'v3']) {
      expect((await first.rollback('label', 'équipe label')).ok).toBe(true);
      await until(() => served() === `// ${build}`, { timeoutMs: 5000, everyMs: 10, what: `${build} suivie` });
    }
  });
});
