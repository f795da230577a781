import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { decodeHTML } from 'entities';
import { PARTS, type PartName } from '@collectif/shared';
import { pagesJson, until, serverContainer } from '@collectif/shared/testing';
import { buildApp } from '../../app/app';
import { testConfig } from '../../api/testing/fixtures';
import { readSiteServerConfig, workspaceRoot } from '../../settings/config';
import { createRenderPool } from './render-pool';
import { probeSandbox } from './sandbox';
import { visitorApi } from './renderer-requests';
import type { Readiness } from './readiness';
import { SHELL, writeUnder, documentJson, inspectorAnswers } from './fixtures';

// Pages rendered by renderer processes (docs/rendering.md, « Renderers »): whatever a part's
// server code does, the page is answered and the rest of the server never waits on it.

const GOOD_RADIO = `
const React = require('react');
exports.modules = { HomePage: () => React.createElement('h1', null, 'Accueil rendu par un fil') };
`;

/**
 * A radio part whose code does what a careless deploy could, on its home page: caught by its trial
 * (docs/deploy.md, « The trial »), before a renderer that serves visitors evaluates it.
 */
const HOSTILE: Record<string, string> = {
  'throws when evaluated': 'throw new Error("cassé au chargement");',
  'loops when evaluated': 'for (;;) {}',
  'loops while rendering': `
const React = require('react');
exports.modules = { HomePage: () => { for (;;) {} } };
`,
  'allocates without bound while rendering': `
const React = require('react');
exports.modules = { HomePage: () => { const kept = []; for (;;) kept.push(new Array(1e6).fill(1)); } };
`,
};

/**
 * A radio part that passes its trial and misbehaves later, on one address only (`?piege`): the
 * serving renderers' own guard, a deadline that kills the renderer.
 */
const LATER: Record<string, string> = {
  'loops while rendering': `
const React = require('react');
const { useLocation } = require('@collectif/shared');
exports.modules = { HomePage: () => {
  if (useLocation().search.includes('piege')) for (;;) {}
  return React.createElement('h1', null, 'Accueil rendu par un fil');
} };
`,
  'waits for data that never arrives': `
const React = require('react');
exports.modules = { HomePage: () => React.createElement('h1', null, 'Sans données') };
exports.definitions = { HomePage: { load: () => [new Promise(() => undefined)] } };
`,
};

/** A site on built parts in a folder of its own, its radio part's server code `radio`. */
async function siteWith(
  workers: number,
  radio: string,
  env: Record<string, string> = {},
  files: Record<string, string> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'pool-'));
  const write = (path: string, content: string) => {
    writeUnder(dir, path, content);
  };
  write('shell/dist/document.json', documentJson());
  write('shell/dist/server/remoteEntry.js', serverContainer(SHELL));
  write('mf-radio/dist/server/remoteEntry.js', serverContainer(radio));
  for (const part of ['mf-radio', 'mf-player', 'mf-label', 'mf-about']) write(`${part}/dist/mf-manifest.json`, '{}');
  for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(`${part}/dist/pages.json`, pagesJson(part));
  for (const [path, content] of Object.entries(files)) write(path, content);
  const site = readSiteServerConfig({
    DIST_ROOT: dir,
    ASSETS_DIR: join(dir, 'assets'),
    SITE_ORIGIN: 'https://radio.example.org',
    RENDERERS: String(workers),
    // Every render anew: the cache would answer the second request of a test.
    PAGE_CACHE_TTL_S: '0',
    // A hostile bundle's trial ends sooner than the default 15 s.
    RENDER_TRIAL_S: '3',
    ...env,
  });
  const app = await buildApp({ site, api: testConfig() });
  return {
    app,
    write,
    /** `next` put in the place of `folder` by renames, the old one removed. */
    swap: (folder: string, next: string) => {
      renameSync(join(dir, folder), join(dir, `${folder}.old`));
      renameSync(join(dir, next), join(dir, folder));
      rmSync(join(dir, `${folder}.old`), { recursive: true, force: true });
    },
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let app: FastifyInstance;
let write: (path: string, content: string) => void;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, write, close } = await siteWith(2, GOOD_RADIO));
  // The first page waits for both renderers to have loaded the server's code.
  expect((await app.inject({ url: '/' })).body).toContain('Accueil rendu par un fil');
}, 60_000);

afterAll(async () => {
  await close();
});

/** This process's children running a renderer's code (the serving ones, and a trial's while it runs). */
function rendererProcesses(): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      return parent === process.pid && /renderer\.m?js/.test(command) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** The order in which answers arrive. */
function arrivals() {
  const order: string[] = [];
  return {
    order,
    get: async (url: string) => {
      const res = await app.inject({ url });
      order.push(url);
      return res;
    },
  };
}

const replacedRenderers = async () => (await app.inject({ url: '/readyz' })).json<Readiness>().renderers.replaced;

/** The page rendered on the server again, once the new bundle's trial has passed. */
const renderedAgain = (site: { app: FastifyInstance }, text: string, url = '/') =>
  until(async () => (await site.app.inject({ url })).body.includes(text), {
    timeoutMs: 30_000,
    everyMs: 100,
    what: `« ${text} » rendu sur le serveur`,
  });

describe('a new server container copied by hand', () => {
  it.each(Object.entries(HOSTILE))(
    'that %s is refused at its trial: pages are answered, no serving renderer touches it, the good bundle comes back',
    async (_what, code) => {
      write('mf-radio/dist/server/remoteEntry.js', serverContainer(code));
      const replacedBefore = await replacedRenderers();
      // The page while the new version is on trial: its area left to the browser, kept by nobody.
      const res = await app.inject({ url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).not.toContain('Accueil rendu par un fil');
      const ready = async () => (await app.inject({ url: '/readyz' })).json<Readiness>();
      await until(async () => (await ready()).parts.radio?.state === 'refused', {
        timeoutMs: 30_000,
        everyMs: 100,
        what: 'le bundle refusé à son essai (/readyz)',
      });
      expect((await ready()).parts.radio?.reason).toBeTruthy();
      // Still refused, never evaluated by a renderer serving pages.
      expect((await app.inject({ url: '/' })).body).not.toContain('Accueil rendu par un fil');
      expect(await replacedRenderers()).toBe(replacedBefore);

      // Deployed again, the good bundle renders on the server once tried, with no restart.
      write('mf-radio/dist/server/remoteEntry.js', serverContainer(GOOD_RADIO));
      await renderedAgain({ app }, 'Accueil rendu par un fil');
      expect((await app.inject({ url: '/readyz' })).json<Readiness>().parts.radio?.state).toBe('ok');
    },
    60_000,
  );

  it.each(Object.entries(LATER))(
    'that passes its trial and %s on one address: that page is answered, the server never waits',
    async (what, code) => {
      write('mf-radio/dist/server/remoteEntry.js', serverContainer(code));
      await renderedAgain({ app }, what === 'loops while rendering' ? 'Accueil rendu par un fil' : 'Sans données');
      const replacedBefore = await replacedRenderers();
      const answers = arrivals();
      const page = answers.get('/?piege');
      // While the renderer is busy with it, the server answers the rest.
      const [health, podcasts] = await Promise.all([answers.get('/healthz'), answers.get('/api/podcasts?limit=1')]);
      const res = await page;
      expect(health.statusCode).toBe(200);
      expect(podcasts.statusCode).toBe(200);
      expect(res.statusCode).toBe(200);
      if (what === 'loops while rendering') {
        // Answered while the page’s renderer was held, and the renderer was killed at the deadline.
        expect(answers.order).toEqual(['/healthz', '/api/podcasts?limit=1', '/?piege']);
        expect(await replacedRenderers()).toBe(replacedBefore + 1);
      }
      write('mf-radio/dist/server/remoteEntry.js', serverContainer(GOOD_RADIO));
      await renderedAgain({ app }, 'Accueil rendu par un fil');
    },
    60_000,
  );

  it('there when the server starts is used as it is, and disabled when its evaluation never ends, until its file changes', async () => {
    const site = await siteWith(1, HOSTILE['loops when evaluated'] ?? '');
    try {
      await site.app.inject({ url: '/' });
      const status = async () => (await site.app.inject({ url: '/readyz' })).json<Readiness>();
      const replaced = (await status()).renderers.replaced;
      expect(replaced).toBe(1);
      await site.app.inject({ url: '/' });
      // Known to loop: the next page does not evaluate it again, so no renderer is held to the deadline.
      expect((await status()).renderers.replaced).toBe(replaced);
      expect((await status()).parts.radio).toMatchObject({
        state: 'refused',
        reason: expect.stringContaining('ne finit pas') as unknown,
      });
      site.write('mf-radio/dist/server/remoteEntry.js', serverContainer(GOOD_RADIO));
      await renderedAgain(site, 'Accueil rendu par un fil');
      expect((await status()).parts.radio?.state).toBe('ok');
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('a player container that never ends its evaluation, there when the server starts', () => {
  // The shell, the player, then the page's part are evaluated one after the other (render-page.ts): the
  // one that hangs is the one blamed, never the lane's own part loaded after it.
  it('is the one disabled: the lane’s own part is not, and renders on the server', async () => {
    const site = await siteWith(
      1,
      GOOD_RADIO,
      {},
      { 'mf-player/dist/server/remoteEntry.js': serverContainer('for (;;) {}') },
    );
    try {
      await site.app.inject({ url: '/' });
      const status = async () => (await site.app.inject({ url: '/readyz' })).json<Readiness>();
      expect((await status()).parts.player).toMatchObject({
        state: 'refused',
        reason: expect.stringContaining('ne finit pas') as unknown,
      });
      expect((await status()).parts.radio?.state).toBe('ok');
      // The player's area is left to the browser; the radio's page renders on the server.
      expect((await site.app.inject({ url: '/' })).body).toContain('Accueil rendu par un fil');
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('pages waiting for a renderer', () => {
  // Each page takes 60 ms of one renderer’s time, and says when its render began.
  const SLOW_RADIO = `
const React = require('react');
exports.modules = { HomePage: () => {
  const began = Date.now();
  while (Date.now() < began + 60) {}
  return React.createElement('h1', { 'data-began': String(began) }, 'Page lente');
} };
`;

  it('are rendered in the order they came, none overtaken, and counted while they wait', async () => {
    const site = await siteWith(1, SLOW_RADIO);
    try {
      expect((await site.app.inject({ url: '/' })).body).toContain('Page lente');
      const finished: number[] = [];
      const began: number[] = [];
      // Sent one after the other, in one go: the first takes the renderer, the others all come while it
      // is rendering, each after the one before (the same way to the pool for each, none waiting on
      // anything but the pool). The order is the one their renders began in, said by the renderer:
      // the order the answers end in also holds what follows the render (on a loaded machine, the
      // writing of one page's answer may outlast the next page's 60 ms).
      const pages = Array.from({ length: 6 }, async (_, n) => {
        const res = await site.app.inject({ url: `/?page=${String(n)}` });
        expect(res.body).toContain('Page lente');
        began[n] = Number(/data-began="(\d+)"/.exec(res.body)?.[1]);
        finished.push(n);
      });
      // Meanwhile the admins' metrics say how many wait (docs/deploy.md, « Metrics »).
      const waiting: number[] = [];
      while (finished.length < 6) {
        // A turn of the event loop between two reads: the renderers' answers are I/O.
        await new Promise((resolve) => setImmediate(resolve));
        const metrics = (await site.app.inject({ url: '/metrics' })).body;
        waiting.push(Number(/^collectif_render_queue_length (\d+)$/m.exec(metrics)?.[1]));
      }
      await Promise.all(pages);
      const inOrderOfBeginning = [0, 1, 2, 3, 4, 5].sort((a, b) => (began[a] ?? NaN) - (began[b] ?? NaN));
      expect(inOrderOfBeginning).toEqual([0, 1, 2, 3, 4, 5]);
      // One renderer: each began once the one before had taken its 60 ms.
      for (let n = 1; n < 6; n++) expect((began[n] ?? 0) - (began[n - 1] ?? 0)).toBeGreaterThanOrEqual(60);
      expect(Math.max(...waiting)).toBeGreaterThanOrEqual(2);
    } finally {
      await site.close();
    }
  }, 30_000);
});

describe('renderers that have evaluated many redeployed bundles', () => {
  const radio = (n: number) => `
const React = require('react');
exports.modules = { HomePage: () => React.createElement('h1', null, 'Version ${String(n)}') };
`;

  it('are replaced by fresh ones, with no page lost, and /readyz counts it', async () => {
    const site = await siteWith(1, radio(0), { RENDER_RECYCLE_AFTER: '3' });
    try {
      const status = async () => (await site.app.inject({ url: '/readyz' })).json<Readiness>().renderers;
      expect(await status()).toEqual({ perLane: 1, sandbox: 'bubblewrap', replaced: 0, recycled: 0, trying: null });
      for (let n = 1; n <= 3; n += 1) {
        site.write('mf-radio/dist/server/remoteEntry.js', serverContainer(radio(n)));
        await renderedAgain(site, `Version ${String(n)}`);
      }
      // Pages keep rendering while the fresh renderer starts; then it takes over (a renderer’s start
      // takes seconds on a busy machine: it is waited for, up to 40 s).
      await until(
        async () => {
          if ((await status()).recycled === 1) return true;
          expect((await site.app.inject({ url: '/' })).body).toContain('Version 3');
          return false;
        },
        { timeoutMs: 40_000, everyMs: 100, what: 'le fil neuf en service (/readyz : recycled 1)' },
      );
      expect(await status()).toEqual({ perLane: 1, sandbox: 'bubblewrap', replaced: 0, recycled: 1, trying: null });
      site.write('mf-radio/dist/server/remoteEntry.js', serverContainer(radio(4)));
      await renderedAgain(site, 'Version 4');
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('a team’s server code, hostile', () => {
  // What a hostile team's bundle tries when it is evaluated (docs/rendering.md, « Renderers »): each
  // try's outcome, or the code of its error, rendered on its page (live) or thrown (at its trial).
  const tries = (secretFile: string, writeTo: string) => `
const React = require('react');
const fs = require('node:fs');
const tries = {};
const attempt = (name, run) => {
  try { tries[name] = String(run()).slice(0, 300); } catch (error) { tries[name] = String((error && error.code) || error); }
};
// The server's inspector, opened by a signal (docs/rendering.md, « The sandbox »): the server's pid
// and the renderer's parent, each sent SIGUSR1, SIGSTOP and SIGTERM.
for (const signal of ['SIGUSR1', 'SIGSTOP', 'SIGTERM']) {
  attempt('server' + signal, () => { process.kill(${String(process.pid)}, signal); return 'envoyé'; });
  attempt('parent' + signal, () => { process.kill(process.ppid, signal); return 'envoyé'; });
}
// A listener on the loopback, by TCP and HTTP: nothing may arrive.
attempt('tcp', () => { require('node:net').connect(${String(port)}, '127.0.0.1').on('error', () => undefined); return 'tenté'; });
attempt('http', () => { fetch('http://127.0.0.1:${String(port)}/').catch(() => undefined); return 'tenté'; });
attempt('procOne', () => fs.readFileSync('/proc/1/environ', 'utf8'));
attempt('dotenv', () => fs.readFileSync(${JSON.stringify(dotenv)}, 'utf8'));
attempt('env', () => JSON.stringify(process.env));
attempt('parentEnviron', () => fs.readFileSync('/proc/' + process.ppid + '/environ', 'utf8'));
attempt('ownEnviron', () => fs.readFileSync('/proc/self/environ', 'utf8'));
attempt('outside', () => fs.readFileSync(${JSON.stringify(secretFile)}, 'utf8'));
attempt('write', () => { fs.writeFileSync(${JSON.stringify(writeTo)}, 'écrit'); return 'écrit'; });
attempt('spawn', () => require('node:child_process').execFileSync('id').toString());
attempt('worker', () => { new (require('node:worker_threads').Worker)('1', { eval: true }); return 'démarré'; });
attempt('binding', () => Object.keys(process.binding('fs')).length);
// The renderer's collector (--expose-gc, kept by renderer.ts): a part that finds it could stall its
// renderer's pages for others with a collection at every turn.
attempt('collector', () => typeof globalThis.gc);
`;
  const LIVE = (secretFile: string, writeTo: string) => `${tries(secretFile, writeTo)}
exports.modules = { HomePage: () => React.createElement('pre', { id: 'essais' }, JSON.stringify(tries)) };
`;
  const AT_TRIAL = (secretFile: string, writeTo: string) => `${tries(secretFile, writeTo)}
throw new Error('essais ' + JSON.stringify(tries));
`;
  const SECRET = 'jeton-secret-de-test-0123456789';
  /** A listener on the loopback, and what reached it. */
  let listener: Server;
  let port = 0;
  const arrived: string[] = [];
  /** An .env beside the server's code (the repository's root), which no renderer may read. */
  const dotenv = join(workspaceRoot, '.env.essai-renderer');
  let outside: string;
  let secretFile: string;
  let writeTo: string;
  const saved = process.env.ADMIN_TOKEN;
  /** The site's environment: a secret beside what a renderer is given. */
  const siteEnv = () => ({ NODE_ENV: 'test', TZ: 'Europe/Paris', ADMIN_TOKEN: SECRET, REDIS_PASSWORD: SECRET });
  beforeAll(async () => {
    listener = createServer((socket) => {
      arrived.push('connexion');
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    writeFileSync(dotenv, `ADMIN_TOKEN=${SECRET}`);
    outside = mkdtempSync(join(tmpdir(), 'secrets-'));
    secretFile = join(outside, 'accounts.json');
    writeTo = join(outside, 'written.txt');
    writeUnder(outside, 'accounts.json', `{"token":"${SECRET}"}`);
    // A secret in the server's environment: the renderers' is an allow-list.
    process.env.ADMIN_TOKEN = SECRET;
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
    rmSync(dotenv, { force: true });
    if (saved === undefined) delete process.env.ADMIN_TOKEN;
    else process.env.ADMIN_TOKEN = saved;
    rmSync(outside, { recursive: true, force: true });
  });

  const expectDenied = async (found: Record<string, string>) => {
    // Of the site's environment, the mode and the time zone only (and the folder it starts in).
    expect(JSON.parse(found.env ?? 'null')).toEqual({ NODE_ENV: 'test', TZ: 'Europe/Paris', PWD: '/tmp' });
    const files = [
      'parentEnviron',
      'ownEnviron',
      'procOne',
      'outside',
      'dotenv',
      'write',
      'spawn',
      'worker',
      'binding',
    ];
    for (const name of files) expect([name, found[name]]).toEqual([name, 'ERR_ACCESS_DENIED']);
    expect(found.collector).toBe('undefined');
    expect(existsSync(writeTo)).toBe(false);
    // The server is out of sight: no signal reaches it, its renderer's parent is the sandbox's init.
    for (const signal of ['SIGUSR1', 'SIGSTOP', 'SIGTERM']) {
      expect([signal, found[`server${signal}`]]).toEqual([signal, 'ESRCH']);
      expect([signal, found[`parent${signal}`]]).not.toEqual([signal, 'ERR_ACCESS_DENIED']);
    }
    expect(await inspectorAnswers()).toBe(false);
    // Nothing reached the loopback's listener: its attempts were made as the part was evaluated, before
    // the page it rendered, and a connection on the loopback is taken at once (sandbox.test.ts sees
    // each one refused, waiting for its answer).
    expect(arrived).toEqual([]);
  };

  // Signals sent to the server's pid would stop this test's process were the walls missing: the
  // tests stop first, and fail (they never skip).
  const wallsFirst = () => {
    expect(probeSandbox()).toEqual({ mode: 'bubblewrap', why: null });
  };

  it('live: every try is denied, and its page shows no secret', async () => {
    wallsFirst();
    const site = await siteWith(1, LIVE(secretFile, writeTo), siteEnv());
    try {
      const res = await site.app.inject({ url: '/' });
      const shown = /<pre id="essais">([^<]*)<\/pre>/.exec(res.body)?.[1];
      expect(shown).toBeDefined();
      await expectDenied(JSON.parse(decodeHTML(shown ?? '')) as Record<string, string>);
      expect((await site.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      for (const answer of [res.body, (await site.app.inject({ url: '/readyz' })).body]) {
        expect(answer).not.toContain(SECRET);
      }
    } finally {
      await site.close();
    }
  }, 60_000);

  it('at its trial: every try is denied, and the refusal says no secret', async () => {
    wallsFirst();
    const site = await siteWith(1, GOOD_RADIO, siteEnv());
    try {
      await site.app.inject({ url: '/' });
      site.write('mf-radio/dist/server/remoteEntry.js', serverContainer(AT_TRIAL(secretFile, writeTo)));
      await site.app.inject({ url: '/' });
      const ready = async () => (await site.app.inject({ url: '/readyz' })).json<Readiness>();
      await until(async () => (await ready()).parts.radio?.state === 'refused', {
        timeoutMs: 30_000,
        everyMs: 100,
        what: 'la version refusée à l’essai',
      });
      const reason = (await ready()).parts.radio?.reason ?? '';
      const found = /essais (\{.*\})/.exec(reason)?.[1];
      expect(found).toBeDefined();
      await expectDenied(JSON.parse(found ?? '{}') as Record<string, string>);
      expect((await site.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect(JSON.stringify(await ready())).not.toContain(SECRET);
      // The trial's process is gone once it has answered: the two serving renderers of the suite's
      // site and this site's one remain.
      await until(() => rendererProcesses().length === 3, {
        timeoutMs: 10_000,
        everyMs: 100,
        what: 'la fin du processus d’essai',
      });
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('a host that cannot make the walls', () => {
  const cannot = () => ({ mode: 'permissions' as const, why: 'bubblewrap (bwrap) n’est pas installé' });
  const options = (requireWalls: boolean, warned: string[]) => ({
    renderers: 1,
    deadlineMs: 1000,
    answerApi: () => Promise.reject(new Error('aucune')),
    distDirs: Object.fromEntries(PARTS.map(({ name }) => [name, join(tmpdir(), name, 'dist')])) as Record<
      PartName,
      string
    >,
    env: {},
    log: { warn: (message: string) => warned.push(message), debug: () => undefined },
    requireWalls,
    probe: cannot,
  });

  it('refuses to start renderers when teams deploy, saying why in French', () => {
    expect(() => createRenderPool(options(true, []))).toThrow(
      /Les équipes déploient \(DEPLOY_TOKENS\) mais les processus de rendu ne peuvent pas être isolés : bubblewrap \(bwrap\) n’est pas installé/,
    );
  });

  it('otherwise runs them with the permission model alone, and says so', async () => {
    const warned: string[] = [];
    const pool = createRenderPool(options(false, warned));
    try {
      expect(pool.status().sandbox).toBe('permissions');
      expect(warned.join('\n')).toMatch(/sans bac à sable du système .* seul le modèle de permissions de Node/);
    } finally {
      await pool.close();
    }
  });
});

describe('a part’s folder replaced by a rename, as a hand deploy does', () => {
  it('is seen by the renderers behind their walls: the new version renders on the server', async () => {
    const site = await siteWith(1, GOOD_RADIO);
    try {
      expect((await site.app.inject({ url: '/' })).body).toContain('Accueil rendu par un fil');
      // The new dist/ made beside the old one, then put in its place in one step.
      const radio = `
const React = require('react');
exports.modules = { HomePage: () => React.createElement('h1', null, 'Version mise à sa place') };
`;
      site.write('mf-radio/dist.next/server/remoteEntry.js', serverContainer(radio));
      site.write('mf-radio/dist.next/mf-manifest.json', '{}');
      site.write('mf-radio/dist.next/pages.json', pagesJson('mf-radio'));
      site.swap('mf-radio/dist', 'mf-radio/dist.next');
      await renderedAgain(site, 'Version mise à sa place');
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('a part nobody visits', () => {
  it('keeps one renderer past RENDER_IDLE_S, its other ones stopped: its next page waits for none to start', async () => {
    const before = new Set(rendererProcesses());
    const mine = () => rendererProcesses().filter((pid) => !before.has(pid));
    // Idle periods of 4 s: the kept renderer is called every third of one, and its connection closes
    // after a whole one without a call. A stall of this process's event loop longer than the two
    // thirds between (a loaded machine's, a fresh clone's whole run) lets it close once, and another
    // renderer is started in its place: with 1 s, then 2 s, that happened (production's 300 s leaves
    // 200 s).
    const site = await siteWith(2, GOOD_RADIO, { RENDER_IDLE_S: '4' });
    try {
      // Pages at once: the lane's two renderers, counted while the pages are made (on a loaded
      // machine, one of them may be idle for RENDER_IDLE_S before the last page is done).
      let most = 0;
      const counting = setInterval(() => {
        most = Math.max(most, mine().length);
      }, 20);
      const pages = await Promise.all(['/', '/?a', '/?b', '/?c'].map((url) => site.app.inject({ url }))).finally(() => {
        clearInterval(counting);
      });
      for (const page of pages) expect(page.body).toContain('Accueil rendu par un fil');
      expect(Math.max(most, mine().length)).toBe(2);
      await until(() => mine().length === 1, {
        timeoutMs: 20_000,
        everyMs: 100,
        what: 'un seul processus de rendu gardé',
      });
      const kept = mine();
      // Two idle periods later, the same one is still there…
      await new Promise((resolve) => setTimeout(resolve, 8500));
      expect(mine()).toEqual(kept);
      // …and answers the next page: no renderer started for it.
      expect((await site.app.inject({ url: '/?apres' })).body).toContain('Accueil rendu par un fil');
      expect(mine()).toEqual(kept);
    } finally {
      await site.close();
    }
  }, 60_000);

  it('has its renderers all stopped after RENDER_IDLE_S with RENDER_KEEP_ONE off, and started again with its next page', async () => {
    const before = rendererProcesses().length;
    const site = await siteWith(1, GOOD_RADIO, { RENDER_IDLE_S: '1', RENDER_KEEP_ONE: 'off' });
    try {
      expect((await site.app.inject({ url: '/' })).body).toContain('Accueil rendu par un fil');
      expect(rendererProcesses().length).toBe(before + 1);
      await until(() => rendererProcesses().length === before, {
        timeoutMs: 10_000,
        everyMs: 100,
        what: 'les processus de rendu de la partie arrêtés',
      });
      expect((await site.app.inject({ url: '/' })).body).toContain('Accueil rendu par un fil');
      expect(rendererProcesses().length).toBe(before + 1);
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('a bundle that forges its renderer’s answers', () => {
  // The radio's code, as it is evaluated, writes on its render channel an answer of its own that
  // sends the visitor off the site (with its process's name, read from its arguments), and on its
  // host channel readings that blame the shell, for made-up tasks (docs/rendering.md, « The channel »).
  const FORGER = `
const React = require('react');
const fs = require('node:fs');
const name = process.argv[process.argv.length - 1];
const forged = JSON.stringify({ ok: true, value: { kind: 'redirect', location: 'https://pirate.example/' } });
try {
  fs.writeSync(3, 'HTTP/1.1 200 OK\\r\\nx-renderer: ' + name + '\\r\\ncontent-type: application/json\\r\\ncontent-length: ' + Buffer.byteLength(forged) + '\\r\\n\\r\\n' + forged);
} catch {}
for (let n = 0; n < 10; n += 1) {
  const body = JSON.stringify({ type: 'reading', task: '00000000-0000-0000-0000-00000000000' + n, part: 'shell', version: 'x', where: 'x' });
  try { fs.writeSync(4, 'POST / HTTP/1.1\\r\\ncontent-length: ' + body.length + '\\r\\n\\r\\n' + body); } catch {}
}
exports.modules = { HomePage: () => React.createElement('h1', null, 'Accueil falsifié') };
`;
  const LABEL = `
const React = require('react');
exports.modules = { LabelPage: () => React.createElement('h1', null, 'Le label, rendu par son équipe') };
`;

  it('sends no visitor off the site, and changes nothing of another part’s pages', async () => {
    const site = await siteWith(1, FORGER);
    try {
      site.write('mf-label/dist/server/remoteEntry.js', serverContainer(LABEL));
      const label = async () => (await site.app.inject({ url: '/label' })).body;
      // The label's page, rendered on the server in the label's own renderers.
      await until(async () => (await label()).includes('Le label, rendu par son équipe'), {
        timeoutMs: 30_000,
        everyMs: 100,
        what: 'la page du label rendue sur le serveur',
      });
      for (let n = 0; n < 3; n += 1) {
        const home = await site.app.inject({ url: '/' });
        expect(home.statusCode).toBe(200);
        expect(home.headers.location).toBeUndefined();
        expect(home.body).not.toContain('pirate.example');
      }
      expect(await label()).toContain('Le label, rendu par son équipe');
      // The shell's container was never blamed by the radio's lies.
      const ready = (await site.app.inject({ url: '/readyz' })).json<Readiness>();
      expect(ready.parts.shell?.state).toBe('ok');
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('what a renderer may ask of the site', () => {
  it('is a GET of /api as an anonymous visitor: any other address is refused', async () => {
    const ask = visitorApi(app);
    const origin = 'https://radio.example.org';
    for (const path of ['/readyz', '/admin', '/api/../readyz', '/api/%2e%2e/readyz', '/mf-radio/mf-manifest.json']) {
      expect([path, (await ask(`${origin}${path}`)).status]).toEqual([path, 403]);
    }
    const answer = await ask(`${origin}/api/content/residences?view=summary`);
    expect(answer.status).toBe(200);
    expect(Array.isArray(JSON.parse(new TextDecoder().decode(answer.body)))).toBe(true);
  });
});
