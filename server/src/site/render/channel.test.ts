import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeHTML } from 'entities';
import * as tar from 'tar';
import { pagesJson, serverContainer, until } from '@collectif/shared/testing';
import { buildApp } from '../../app/app';
import { testConfig } from '../../api/testing/fixtures';
import { readSiteServerConfig } from '../../settings/config';
import { SHELL, documentJson, writeUnder } from './fixtures';
import type { Readiness } from './readiness';

// The channel between the server and a renderer, tried as a hostile team would (docs/rendering.md,
// « The channel »): the label team deploys, through `PUT /api/parts/label` with its own token, a
// server container that attacks the channel. Live (it passes its trial, then attacks on
// `/label?piege`), the server keeps serving every other page, the renderer is replaced and the
// label's page is answered for the browser to render; at its trial, the deploy is refused.

const LABEL_TOKEN = 'label-jeton-de-test-000000000001';

/** A label container that renders « Label fiable » and does `attack` when `when` is true. */
const labelCode = (attack: string, when: string) => `
const React = require('react');
const fs = require('fs');
const { useLocation } = require('@collectif/shared');
function attack() { ${attack} }
exports.modules = { LabelPage: () => {
  const search = useLocation().search;
  if (${when}) return React.createElement('p', null, 'Essai : ' + String(attack()));
  return React.createElement('h1', null, 'Label fiable');
} };
`;

const live = (attack: string) => labelCode(attack, "search.includes('piege')");
const atTrial = (attack: string) => labelCode(attack, 'true');

const bytes = (list: number[]) => `Buffer.from(${JSON.stringify(list)})`;
/**
 * Writes `what` to a descriptor until it is closed (EPIPE) or `total` bytes are written, trying again
 * while the descriptor is full (it is non-blocking): as fast as the server reads.
 */
const flood = (fd: number, what: string, total: number) => `
  const chunk = ${what};
  let written = 0;
  while (written < ${String(total)}) {
    try { written += fs.writeSync(${String(fd)}, chunk); } catch (e) { if (e.code !== 'EAGAIN') return e.code; }
  }
  return written;`;
/** Writes `what` forever, as fast as the server reads. */
const forever = (fd: number, what: string) =>
  `for (;;) { try { fs.writeSync(${String(fd)}, ${what}); } catch (e) { if (e.code !== 'EAGAIN') return e.code; } }`;

const ATTACKS: Record<string, string> = {
  // Node's IPC framing (length, structured-clone header, an invalid tag): the server exited on it.
  'ten bytes of Node’s IPC framing on fd 3': `fs.writeSync(3, ${bytes([0, 0, 0, 6, 0xff, 0x0f, 0x99, 0x99, 0x99, 0x99])}); for (;;) {}`,
  'the same ten bytes on fd 4': `fs.writeSync(4, ${bytes([0, 0, 0, 6, 0xff, 0x0f, 0x99, 0x99, 0x99, 0x99])}); for (;;) {}`,
  'a line that is not JSON on fd 4, then nothing': `fs.writeSync(4, 'POST / HTTP/1.1\\r\\ncontent-length: 5\\r\\n\\r\\n{{{{{'); for (;;) {}`,
  'an answer that never ends on fd 3': `fs.writeSync(3, 'HTTP/1.1 200 OK\\r\\ntransfer-encoding: chunked\\r\\n\\r\\n');${forever(3, "'1\\r\\na\\r\\n'")}`,
  'a request that never ends on fd 4': `fs.writeSync(4, 'POST / HTTP/1.1\\r\\ntransfer-encoding: chunked\\r\\n\\r\\n');${forever(4, "'1\\r\\na\\r\\n'")}`,
  '10,000 valid small messages on fd 4':
    `const one = 'POST / HTTP/1.1\\r\\ncontent-type: application/json\\r\\ncontent-length: 16\\r\\n\\r\\n{"type":"ready"}';` +
    flood(4, 'Buffer.from(one.repeat(100))', 10_000 * 84),
  '100 MB to stderr': flood(2, "Buffer.alloc(65536, 'e')", 100 * 1024 * 1024),
  'closing fd 3': 'fs.closeSync(3); for (;;) {}',
};

/** A site on built parts, with teams' deploys on (DEPLOY_TOKENS), one renderer per lane. */
async function siteWith() {
  const dir = mkdtempSync(join(tmpdir(), 'channel-'));
  const write = (path: string, content: string) => {
    writeUnder(dir, path, content);
  };
  const partJson = (name: string) =>
    JSON.stringify({
      name,
      contract: name === 'shell' ? '2.4.0' : '^2.3.0',
      builtAt: '2026-11-20T10:00:00.000Z',
      commit: 'abc1234',
    });
  const manifest = (name: string) =>
    JSON.stringify({ name: `collectif_${name}`, metaData: { remoteEntry: { name: 'remoteEntry.js' } } });
  write('shell/dist/document.json', documentJson());
  write('shell/dist/server/remoteEntry.js', serverContainer(SHELL));
  const component = (module: string, text: string) =>
    `const React = require('react'); exports.modules = { ${module}: () => React.createElement('h1', null, ${JSON.stringify(text)}) };`;
  write('mf-radio/dist/server/remoteEntry.js', serverContainer(component('HomePage', 'Accueil de la radio')));
  write('mf-about/dist/server/remoteEntry.js', serverContainer(component('AboutPage', 'À propos du collectif')));
  write('mf-label/dist/server/remoteEntry.js', serverContainer(component('LabelPage', 'Label construit')));
  for (const [folder, name] of [
    ['shell', 'shell'],
    ['mf-radio', 'radio'],
    ['mf-player', 'player'],
    ['mf-label', 'label'],
    ['mf-about', 'about'],
  ] as const) {
    write(`${folder}/dist/mf-manifest.json`, manifest(name));
    write(`${folder}/dist/part.json`, partJson(name));
    if (folder !== 'mf-player' && folder !== 'shell') write(`${folder}/dist/pages.json`, pagesJson(folder));
  }
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const site = readSiteServerConfig({
    DIST_ROOT: dir,
    ASSETS_DIR: join(dir, 'assets'),
    SITE_ORIGIN: 'https://radio.example.org',
    RENDERERS: '1',
    PAGE_CACHE_TTL_S: '0',
    RENDER_TRIAL_S: '3',
    DEPLOY_TOKENS: `label:${LABEL_TOKEN}`,
    EDITOR_ORIGIN: 'https://edition.radio.example.org',
  });
  const app = await buildApp({ site, api: testConfig() });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });

  /** The label's dist/ with `code` as its server container, packed as `npm run deploy` packs it. */
  const deploy = async (code: string) => {
    const build = mkdtempSync(join(tmpdir(), 'label-dist-'));
    writeUnder(build, 'part.json', partJson('label'));
    writeUnder(build, 'mf-manifest.json', manifest('label'));
    writeUnder(build, 'remoteEntry.js', '/* label */');
    writeUnder(build, 'pages.json', pagesJson('mf-label'));
    writeUnder(build, 'server/remoteEntry.js', serverContainer(code));
    const chunks: Buffer[] = [];
    for await (const chunk of tar.c({ gzip: true, cwd: build, portable: true }, ['.'])) chunks.push(Buffer.from(chunk));
    rmSync(build, { recursive: true, force: true });
    const res = await fetch(`${origin}/api/parts/label`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${LABEL_TOKEN}`, 'content-type': 'application/gzip' },
      body: new Uint8Array(Buffer.concat(chunks)),
    });
    return { status: res.status, body: (await res.json()) as { message?: string } };
  };
  return {
    dir,
    origin,
    deploy,
    page: async (path: string) => {
      const res = await fetch(`${origin}${path}`);
      return { status: res.status, body: await res.text() };
    },
    readiness: async () => (await (await fetch(`${origin}/readyz`)).json()) as Readiness,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let site: Awaited<ReturnType<typeof siteWith>>;
beforeAll(async () => {
  site = await siteWith();
  expect((await site.page('/label')).body).toContain('Label construit');
}, 60_000);
afterAll(async () => {
  await site.close();
});

/** Every other part's page still rendered on the server, and the server alive. */
async function othersServed() {
  expect((await site.page('/')).body).toContain('Accueil de la radio');
  expect((await site.page('/a-propos')).body).toContain('À propos du collectif');
  expect((await fetch(`${site.origin}/healthz`)).status).toBe(200);
}

describe('a label container that attacks its channel, live', () => {
  it.each(Object.entries(ATTACKS))(
    '%s: its page is left to the browser, its renderer replaced, every other page served',
    async (_what, attack) => {
      const deployed = await site.deploy(live(attack));
      expect(deployed.status).toBe(200);
      await until(async () => (await site.page('/label')).body.includes('Label fiable'), {
        timeoutMs: 20_000,
        everyMs: 100,
        what: 'la version du label en ligne, rendue sur le serveur',
      });
      const replaced = (await site.readiness()).renderers.replaced;
      const [trap] = await Promise.all([site.page('/label?piege'), othersServed()]);
      expect(trap.status).toBe(200);
      expect(trap.body).not.toContain('Essai :');
      expect(trap.body).not.toContain('Label fiable');
      expect((await site.readiness()).renderers.replaced).toBe(replaced + 1);
      // A fresh renderer renders the label's page again, and the rest of the site never stopped.
      expect((await site.page('/label')).body).toContain('Label fiable');
      await othersServed();
    },
    60_000,
  );
});

describe('a label container that attacks its channel at its trial', () => {
  it.each(Object.entries(ATTACKS))(
    '%s: the deploy is refused, the live version kept',
    async (_what, attack) => {
      const before = (await site.page('/label')).body;
      const refused = await site.deploy(atTrial(attack));
      expect(refused.status).toBe(422);
      expect(refused.body.message).toMatch(/essai/);
      expect((await site.page('/label')).body).toBe(before);
      await othersServed();
    },
    60_000,
  );
});

describe('a renderer’s memory and its server’s', () => {
  it('a frame announcing 2 GB followed by 300 MB grows the server by at most 50 MB', async () => {
    const header = (fd: number, head: string) =>
      `fs.writeSync(${String(fd)}, ${JSON.stringify(head)});` +
      flood(fd, "Buffer.alloc(1 << 20, 'x')", 300 * 1024 * 1024);
    for (const attack of [
      `fs.writeSync(3, ${bytes([0x7f, 0xff, 0xff, 0xf0])});` +
        flood(3, "Buffer.alloc(1 << 20, 'x')", 300 * 1024 * 1024),
      header(3, 'HTTP/1.1 200 OK\r\ncontent-length: 2000000000\r\n\r\n'),
      header(4, 'POST / HTTP/1.1\r\ncontent-length: 2000000000\r\n\r\n'),
    ]) {
      expect((await site.deploy(live(attack))).status).toBe(200);
      await until(async () => (await site.page('/label')).body.includes('Label fiable'), {
        timeoutMs: 20_000,
        everyMs: 100,
        what: 'la version du label en ligne',
      });
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      const trap = await site.page('/label?piege');
      clearInterval(sampler);
      expect(trap.body).not.toContain('Label fiable');
      expect(peak - before).toBeLessThan(50 * 1024 * 1024);
      await othersServed();
    }
  }, 120_000);
});

describe('what a lane may read', () => {
  it('is its own part and the shell’s and the player’s live versions: not another part, not the deploy root', async () => {
    const deployRoot = join(site.dir, 'deploys');
    const tries = {
      root: `fs.readdirSync(${JSON.stringify(deployRoot)})`,
      radio: `fs.readdirSync(${JSON.stringify(join(deployRoot, 'radio'))})`,
      radioBuilt: `fs.readFileSync(${JSON.stringify(join(site.dir, 'mf-radio', 'dist', 'server', 'remoteEntry.js'))}, 'utf8')`,
      about: `fs.readdirSync(${JSON.stringify(join(site.dir, 'mf-about'))})`,
      own: `fs.readdirSync(${JSON.stringify(join(deployRoot, 'label'))}).length > 0`,
    };
    const attack = `return JSON.stringify({ ${Object.entries(tries)
      .map(
        ([name, code]) =>
          `${name}: (() => { try { return ${code} ? 'lu' : 'vide'; } catch (e) { return 'refusé'; } })()`,
      )
      .join(', ')} });`;
    expect((await site.deploy(live(attack))).status).toBe(200);
    await until(async () => (await site.page('/label')).body.includes('Label fiable'), {
      timeoutMs: 20_000,
      everyMs: 100,
      what: 'la version du label en ligne',
    });
    const said = (await site.page('/label?piege')).body.match(/Essai : ([^<]*)/)?.[1] ?? '';
    expect(JSON.parse(decodeHTML(said))).toEqual({
      root: 'refusé',
      radio: 'refusé',
      radioBuilt: 'refusé',
      about: 'refusé',
      own: 'lu',
    });
  }, 60_000);
});

describe('a lane that floods /api', () => {
  it('meets its own bounds: another part’s pages are rendered on the server meanwhile', async () => {
    // On `/label?piege`, the label's page definition asks /api 1,000 times (64 a task are answered).
    const code = `
const React = require('react');
const { api } = require('@collectif/shared');
exports.modules = { LabelPage: () => React.createElement('h1', null, 'Label fiable') };
exports.definitions = { LabelPage: { load: ({ dispatch, query }) => query.has('piege')
  ? Array.from({ length: 1000 }, (_, n) => dispatch(api.endpoints.podcasts.initiate({ limit: n + 1 })))
  : [] } };
`;
    expect((await site.deploy(code)).status).toBe(200);
    await until(async () => (await site.page('/label')).body.includes('Label fiable'), {
      timeoutMs: 20_000,
      everyMs: 100,
      what: 'la version du label en ligne',
    });
    const [flood, home, about] = await Promise.all([site.page('/label?piege'), site.page('/'), site.page('/a-propos')]);
    expect(flood.status).toBe(200);
    expect(home.body).toContain('Accueil de la radio');
    expect(about.body).toContain('À propos du collectif');
  }, 60_000);
});
