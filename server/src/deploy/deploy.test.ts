import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { pagesJson, until, serverContainer } from '@collectif/shared/testing';
import { buildApp } from '../app/app';
import { testConfig } from '../api/testing/fixtures';
import { readSiteServerConfig } from '../settings/config';
import { SHELL, writeUnder, documentJson } from '../site/render/fixtures';
import type { PartStatus } from './deploys';
import { DEPLOY_ATTEMPTS_PER_MINUTE } from '../api/routes/parts';

// A team's deploy through the endpoint (docs/deploy.md), on a real server on loopback: checked,
// tried on a thread that serves no visitor, switched live at once, rolled back; refused, with
// the reason the team reads and nothing changed for visitors, when anything is wrong.

const LABEL_TOKEN = 'label-jeton-de-test-000000000001';
const RADIO_TOKEN = 'radio-jeton-de-test-000000000002';
const SHELL_TOKEN = 'shell-jeton-de-test-000000000003';
const PLAYER_TOKEN = 'player-jeton-de-test-00000000004';

const component = (module: string, text: string) => `
const React = require('react');
exports.modules = { ${module}: () => React.createElement('h1', null, ${JSON.stringify(text)}) };
`;

/** A label part whose server code does what a careless deploy could. */
const HOSTILE_LABEL: Record<string, { code: string; reason: string }> = {
  'throws when evaluated': { code: 'throw new Error("cassé au chargement");', reason: 'échoue au chargement' },
  'loops when evaluated': { code: 'for (;;) {}', reason: 'ne finit pas' },
  'renders nothing': {
    code: 'exports.modules = { LabelPage: () => null };',
    reason: 'ne rend rien',
  },
};

/** What a part's build writes beside its files (shared/build/webpack.mjs). */
const partJson = (name: string, contract: string) =>
  JSON.stringify({ name, contract, builtAt: '2026-11-20T10:00:00.000Z', commit: 'abc1234' });

const manifest = (name: string) =>
  JSON.stringify({ name: `collectif_${name}`, metaData: { remoteEntry: { name: 'remoteEntry.js' } } });

interface LabelVersion {
  text?: string;
  code?: string;
  contract?: string;
  files?: Record<string, string>;
  name?: string;
}

/** The label's dist/ packed as `npm run deploy` packs it. */
async function labelArchive({
  text = 'Label v2',
  code,
  contract = '^2.4.0',
  files = {},
  name = 'label',
}: LabelVersion = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'label-dist-'));
  const write = (path: string, content: string) => {
    writeUnder(dir, path, content);
  };
  write('part.json', partJson(name, contract));
  write('mf-manifest.json', manifest(name));
  write('remoteEntry.js', `/* ${text} */`);
  write('pages.json', pagesJson('mf-label'));
  write('server/remoteEntry.js', serverContainer(code ?? component('LabelPage', text)));
  for (const [path, content] of Object.entries(files)) write(path, content);
  const chunks: Buffer[] = [];
  const stream = tar.c({ gzip: true, cwd: dir, portable: true }, ['.']);
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  rmSync(dir, { recursive: true, force: true });
  return Buffer.concat(chunks);
}

/** A dist/ packed as `npm run deploy` packs it. */
async function pack(files: Record<string, string>): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'dist-'));
  for (const [path, content] of Object.entries(files)) writeUnder(dir, path, content);
  const chunks: Buffer[] = [];
  for await (const chunk of tar.c({ gzip: true, cwd: dir, portable: true }, ['.'])) chunks.push(Buffer.from(chunk));
  rmSync(dir, { recursive: true, force: true });
  return Buffer.concat(chunks);
}

/** The shell's dist/, listing `styles` in its document.json. */
const shellArchive = (styles: string[]) =>
  pack({
    'part.json': partJson('shell', '2.4.0'),
    'mf-manifest.json': JSON.stringify({ name: 'collectif_shell' }),
    'document.json': documentJson(['/main.css', ...styles]),
    'main.css': 'body{margin:0}',
    'server/remoteEntry.js': serverContainer(SHELL),
  });

/** The player's dist/, with `pages` as its pages.json when given. */
const playerArchive = (pages?: unknown) =>
  pack({
    'part.json': partJson('player', '^2.4.0'),
    'mf-manifest.json': manifest('player'),
    'remoteEntry.js': '/* player */',
    'server/remoteEntry.js': serverContainer(component('Player', 'Lecteur')),
    ...(pages === undefined ? {} : { 'pages.json': JSON.stringify(pages) }),
  });

/** A site on built parts in a folder of its own, with deploys on unless `env` says otherwise. */
async function siteWith(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'deploys-'));
  const write = (path: string, content: string) => {
    writeUnder(dir, path, content);
  };
  write('shell/dist/document.json', documentJson());
  write('shell/dist/mf-manifest.json', JSON.stringify({ name: 'collectif_shell' }));
  write('shell/dist/part.json', partJson('shell', '2.4.0'));
  write('shell/dist/server/remoteEntry.js', serverContainer(SHELL));
  write('mf-radio/dist/server/remoteEntry.js', serverContainer(component('HomePage', 'Accueil')));
  write('mf-about/dist/server/remoteEntry.js', serverContainer(component('AboutPage', 'À propos du collectif')));
  write('mf-label/dist/server/remoteEntry.js', serverContainer(component('LabelPage', 'Label v1')));
  write('mf-label/dist/remoteEntry.js', '/* Label v1 */');
  write('mf-label/dist/1.aaaaaaaaaa.js', '/* a chunk of v1 */');
  for (const [part, name] of [
    ['mf-radio', 'radio'],
    ['mf-player', 'player'],
    ['mf-label', 'label'],
    ['mf-about', 'about'],
  ] as const) {
    write(`${part}/dist/mf-manifest.json`, manifest(name));
    write(`${part}/dist/part.json`, partJson(name, '^2.3.0'));
    if (part !== 'mf-player') write(`${part}/dist/pages.json`, pagesJson(part));
  }
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const site = readSiteServerConfig({
    DIST_ROOT: dir,
    ASSETS_DIR: join(dir, 'assets'),
    SITE_ORIGIN: 'https://radio.example.org',
    RENDERERS: '1',
    PAGE_CACHE_TTL_S: '0',
    RENDER_TRIAL_S: '3',
    DEPLOY_TOKENS: `label:${LABEL_TOKEN},radio:${RADIO_TOKEN},about:${RADIO_TOKEN},shell:${SHELL_TOKEN},player:${PLAYER_TOKEN}`,
    EDITOR_ORIGIN: 'https://edition.radio.example.org',
    ...env,
  });
  const app = await buildApp({ site, api: testConfig() });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    origin,
    dir,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Answer {
  status: number;
  body: { part?: string; version?: string; message?: string; advice?: string; error?: string };
}

let site: Awaited<ReturnType<typeof siteWith>>;
beforeAll(async () => {
  site = await siteWith();
}, 60_000);
afterAll(async () => {
  await site.close();
});

async function deploy(archive: Buffer, { token = LABEL_TOKEN, part = 'label' } = {}): Promise<Answer> {
  const res = await fetch(`${site.origin}/api/parts/${part}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
    body: new Uint8Array(archive),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function rollback(token = LABEL_TOKEN): Promise<Answer> {
  const res = await fetch(`${site.origin}/api/parts/label/rollback`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const page = async (path: string) => (await fetch(`${site.origin}${path}`)).text();
const parts = async () => ((await (await fetch(`${site.origin}/api/parts`)).json()) as { parts: PartStatus[] }).parts;
const label = async () => (await parts()).find((part) => part.name === 'label');

describe('a team deploys its part', () => {
  it('is live at once: its page, its files, /api/parts and /readyz say the new version', async () => {
    expect(await page('/label')).toContain('Label v1');
    expect((await label())?.live).toMatchObject({ version: 'construit', by: 'construction' });

    const answer = await deploy(await labelArchive({ files: { '2.bbbbbbbbbb.js': '/* a chunk of v2 */' } }));
    expect(answer.status).toBe(200);
    expect(answer.body.message).toContain('en ligne');
    expect(await page('/label')).toContain('Label v2');
    expect(await page('/mf-label/remoteEntry.js')).toContain('Label v2');
    // A visitor whose page came with the version before still gets its files.
    expect(await page('/mf-label/1.aaaaaaaaaa.js')).toContain('a chunk of v1');
    expect(await page('/mf-label/2.bbbbbbbbbb.js')).toContain('a chunk of v2');

    expect(await label()).toMatchObject({
      source: 'deploy',
      live: { version: answer.body.version, by: 'équipe label', contract: '^2.4.0', commit: 'abc1234' },
    });
    const ready = (await (await fetch(`${site.origin}/readyz`)).json()) as { live: Record<string, string | null> };
    expect(ready.live.label).toBe(answer.body.version);
    expect(ready.live.radio).toBe('construit');
  }, 30_000);

  it('rolls back to the version before, down to the part as it was built, then has nothing left', async () => {
    const second = await deploy(await labelArchive({ text: 'Label v3' }));
    expect(await page('/label')).toContain('Label v3');
    const back = await rollback();
    expect(back.status).toBe(200);
    expect(back.body.version).not.toBe(second.body.version);
    expect(await page('/label')).toContain('Label v2');
    expect((await rollback()).body.version).toBe('construit');
    expect(await page('/label')).toContain('Label v1');
    const none = await rollback();
    expect(none.status).toBe(409);
    expect(none.body.message).toContain('pas de version précédente');
  });

  it('is refused with a wrong token (401) or another team’s (403), and nothing changes', async () => {
    const before = (await label())?.live?.version;
    const unknown = await deploy(await labelArchive({ text: 'Label pirate' }), { token: 'x'.repeat(30) });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe('Jeton de déploiement inconnu');
    const other = await deploy(await labelArchive({ text: 'Label pirate' }), { token: RADIO_TOKEN });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain('pas « label »');
    expect((await label())?.live?.version).toBe(before);
    expect(await page('/label')).not.toContain('pirate');
  });

  it('is refused when built for a newer contract than the live shell provides', async () => {
    const answer = await deploy(await labelArchive({ contract: '^2.5.0', text: 'Label trop neuf' }));
    expect(answer.status).toBe(422);
    expect(`${answer.body.message ?? ''} : ${answer.body.advice ?? ''}`).toBe(
      "construit pour le contrat 2.5, le shell en ligne fournit 2.4 : déployez d'abord le shell",
    );
    expect(await page('/label')).not.toContain('trop neuf');
    expect((await label())?.lastRefusal?.reason).toContain('construit pour le contrat 2.5');
  });

  it('is refused when the archive is another part, or lacks its manifest', async () => {
    const other = await deploy(await labelArchive({ name: 'about' }));
    expect(other.status).toBe(422);
    expect(other.body.message).toContain('cette archive est la partie « about »');
    expect(other.body.advice).toContain('npm run deploy -- about');
  });

  it('is refused when the archive is hostile, with nothing written outside its folder', async () => {
    const header = new tar.Header({ path: '../../evade.js', type: 'File', size: 1, mode: 0o644, mtime: new Date() });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    const body = Buffer.alloc(512);
    body.write('x');
    const answer = await deploy(Buffer.concat([block, body, Buffer.alloc(1024)]));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('..');
    expect(existsSync(join(site.dir, 'deploys', 'evade.js'))).toBe(false);
    expect(existsSync(join(site.dir, 'evade.js'))).toBe(false);
  });

  it.each(Object.entries(HOSTILE_LABEL))(
    'is refused when its server container %s, tried on its own thread; visitors see no change',
    async (_what, { code, reason }) => {
      const before = await page('/label');
      const answer = await deploy(await labelArchive({ code }));
      expect(answer.status).toBe(422);
      expect(answer.body.message).toContain(reason);
      expect(await page('/label')).toBe(before);
    },
    30_000,
  );

  it('answers pages and /healthz while a looping bundle is on trial, on a server with one renderer', async () => {
    const order: string[] = [];
    const trial = deploy(await labelArchive({ code: 'for (;;) {}' })).then((answer) => {
      order.push('essai');
      return answer;
    });
    // Asked once the bundle is on trial.
    await until(
      async () => {
        const ready = (await (await fetch(`${site.origin}/readyz`)).json()) as { renderers: { trying: string | null } };
        return ready.renderers.trying === 'label';
      },
      { timeoutMs: 20_000, everyMs: 20, what: 'le bundle du label à l’essai (/readyz)' },
    );
    const about = await page('/a-propos');
    order.push('a-propos');
    const health = await fetch(`${site.origin}/healthz`);
    order.push('healthz');
    expect(about).toContain('À propos du collectif');
    expect(health.status).toBe(200);
    expect((await trial).status).toBe(422);
    expect(order).toEqual(['a-propos', 'healthz', 'essai']);
  }, 30_000);

  it('counts attempts: past the limit a client is told to wait (429)', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= DEPLOY_ATTEMPTS_PER_MINUTE; n += 1) statuses.push((await rollback('y'.repeat(30))).status);
    expect(statuses).toContain(429);
    expect(statuses[0]).toBe(401);
  });
});

describe('the shell’s list of its files (document.json)', () => {
  it.each([
    ['a path that climbs out', '/../../../../../../../../proc/self/environ', 'a un segment « . » ou « .. »'],
    ['a climb inside a folder', '/files/../../../secret.css', 'a un segment « . » ou « .. »'],
    ['an encoded climb', '/%2e%2e/%2E%2E/proc/self/environ', 'contient un point'],
    ['an encoded slash', '/..%2f..%2fproc/self/environ', 'contient un point'],
    ['a backslash', '/..\\..\\secret.css', 'contient un caractère interdit'],
    ['another host', '//ailleurs.example/x.css', "n'est pas une adresse du site"],
    ['an absolute address', 'https://ailleurs.example/x.css', "n'est pas une adresse du site"],
  ])('is refused at deploy when it names %s, the path named', async (_what, href, problem) => {
    const before = await page('/a-propos');
    const answer = await deploy(await shellArchive([href]), { token: SHELL_TOKEN, part: 'shell' });
    expect(answer.status).toBe(422);
    const named = `document.json : « ${href} » (styles) ${problem}`;
    expect(answer.body.message?.slice(0, named.length)).toBe(named);
    expect(answer.body.advice).toContain('sans « .. » ni caractère encodé');
    expect(await page('/a-propos')).toBe(before);
    expect((await parts()).find((part) => part.name === 'shell')?.live?.version).toBe('construit');
  });

  it('on disk, written by hand: a bad path is ignored, the page still served, the file never read', async () => {
    const shellDir = join(site.dir, 'shell', 'dist');
    const file = join(shellDir, 'document.json');
    writeUnder(site.dir, 'secret.css', 'SECRET_DU_SERVEUR=hunter2');
    writeUnder(shellDir, 'main.css', 'body{margin:0}');
    symlinkSync(join(site.dir, 'secret.css'), join(shellDir, 'lien.css'));
    const styles = ['/../secret.css', '/%2e%2e/secret.css', '/lien.css', '/../../../../../../../../proc/self/environ'];
    const built = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, documentJson(['/main.css', ...styles]));
      const res = await fetch(`${site.origin}/a-propos`);
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(html).toContain('À propos du collectif');
      expect(html).toContain('<style data-href="/main.css">body{margin:0}</style>');
      expect(html).not.toContain('SECRET_DU_SERVEUR');
      expect(html).not.toContain('environ');
    } finally {
      writeFileSync(file, built);
      rmSync(join(shellDir, 'lien.css'));
    }
  });
});

describe('the pages a part declares (pages.json)', () => {
  const asPlayer = { token: PLAYER_TOKEN, part: 'player' };

  it('are checked for the player too: a file the server would refuse is refused at deploy', async () => {
    const malformed = await deploy(
      await playerArchive([{ path: '/../admin', module: 'Player', title: 'x', area: 'x' }]),
      asPlayer,
    );
    expect(malformed.status).toBe(422);
    expect(malformed.body.message).toBe(
      'pages.json refusé : pages de « player » : 0.path : chemin de page invalide (mots en minuscules et :paramètres, sans / au début)',
    );
    const notAList = await deploy(await playerArchive({ path: 'label' }), asPlayer);
    expect(notAList.status).toBe(422);
    expect(notAList.body.message).toMatch(/^pages\.json refusé : pages de « player »/);
    expect((await parts()).find((part) => part.name === 'player')?.live?.version).toBe('construit');
  });
});

describe('a page address belongs to one part', () => {
  /** A declaration of pages.json. */
  const declared = (path: string, module: string) => ({
    path,
    module,
    title: `Page /${path}`,
    area: `La page /${path}`,
  });
  /** Radio's dist/, with these pages. */
  const radioArchive = (pages: unknown) =>
    pack({
      'part.json': partJson('radio', '^2.4.0'),
      'mf-manifest.json': manifest('radio'),
      'remoteEntry.js': '/* radio v2 */',
      'pages.json': JSON.stringify(pages),
      'server/remoteEntry.js': serverContainer(component('HomePage', 'Radio v2')),
    });
  const tableIn = (html: string) =>
    (
      JSON.parse(/<script type="application\/json" id="pages-config">(.*?)<\/script>/.exec(html)?.[1] ?? '[]') as {
        path: string;
        remote: string;
      }[]
    ).map(({ path, remote }) => `${remote} ${path}`);

  let own: Awaited<ReturnType<typeof siteWith>>;
  beforeAll(async () => {
    own = await siteWith();
  }, 60_000);
  afterAll(async () => {
    await own.close();
  });
  const send = async (archive: Buffer, part: string, token: string): Promise<Answer> => {
    const res = await fetch(`${own.origin}/api/parts/${part}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
      body: new Uint8Array(archive),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const read = async (path: string) => (await fetch(`${own.origin}${path}`)).text();

  it('refuses the player any address: it is on every page', async () => {
    const answer = await send(await playerArchive([declared('label', 'Player')]), 'player', PLAYER_TOKEN);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(
      "pages.json refusé : l'adresse /label ne peut pas être à la partie player : le lecteur est sur chaque page, il n'a pas d'adresse à lui",
    );
    expect(await read('/label')).toContain('Label v1');
  });

  it("refuses another part's address and the editor's, naming both with their owner", async () => {
    const archive = await labelArchive({
      files: {
        'pages.json': JSON.stringify([
          declared('label', 'LabelPage'),
          declared('a-propos', 'LabelPage'),
          { ...declared('disques', 'LabelPage'), aliases: ['admin/invitation'] },
        ]),
      },
    });
    const answer = await send(archive, 'label', LABEL_TOKEN);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(
      "pages.json refusé : l'ancienne adresse /admin/invitation est réservée à la partie admin (l'espace des bénévoles) ; l'adresse /a-propos appartient à la partie about",
    );
    expect(answer.body.advice).toContain('retirez ces adresses');
    expect(await read('/a-propos')).toContain('À propos du collectif');
  });

  it('on disk, whatever the files say: a claim on a reserved or held address is left out when serving', async () => {
    const files = {
      player: join(own.dir, 'mf-player', 'dist', 'pages.json'),
      radio: join(own.dir, 'mf-radio', 'dist', 'pages.json'),
    };
    const radio = readFileSync(files.radio, 'utf8');
    try {
      writeFileSync(files.player, JSON.stringify([declared('a-propos', 'Player')]));
      writeFileSync(
        files.radio,
        JSON.stringify([
          ...(JSON.parse(radio) as unknown[]),
          declared('label', 'HomePage'),
          declared('admin/invitation', 'HomePage'),
        ]),
      );
      const html = await read('/label');
      expect(html).toContain('Label v1');
      expect(tableIn(html)).toEqual(expect.arrayContaining(['label label', 'about a-propos']));
      expect(tableIn(html).filter((entry) => /label$|a-propos$|admin/.test(entry))).toEqual([
        'label label',
        'about a-propos',
      ]);
      expect(await read('/a-propos')).toContain('À propos du collectif');
    } finally {
      rmSync(files.player);
      writeFileSync(files.radio, radio);
    }
  });

  it('refuses a rollback to a version whose address another part has taken since', async () => {
    // Label moves to /disques; radio then takes /label, free now.
    const moved = await send(
      await labelArchive({ files: { 'pages.json': JSON.stringify([declared('disques', 'LabelPage')]) } }),
      'label',
      LABEL_TOKEN,
    );
    expect(moved.status).toBe(200);
    const taken = await send(
      await radioArchive([declared('', 'HomePage'), declared('label', 'HomePage')]),
      'radio',
      RADIO_TOKEN,
    );
    expect(taken.status).toBe(200);
    expect(await read('/label')).toContain('Radio v2');
    const back = await fetch(`${own.origin}/api/parts/label/rollback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${LABEL_TOKEN}` },
    });
    expect(back.status).toBe(422);
    expect(((await back.json()) as Answer['body']).message).toBe(
      "retour à la version construit refusé : pages.json refusé : l'adresse /label appartient à la partie radio",
    );
    expect(await read('/label')).toContain('Radio v2');
    expect(await read('/disques')).toContain('Label v2');
  }, 30_000);
});

describe('a site without DEPLOY_TOKENS', () => {
  it('has no deploy endpoint (404), and lists its parts as built', async () => {
    const plain = await siteWith({ DEPLOY_TOKENS: '' });
    try {
      const res = await fetch(`${plain.origin}/api/parts/label`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${LABEL_TOKEN}`, 'content-type': 'application/gzip' },
        body: new Uint8Array(await labelArchive()),
      });
      expect(res.status).toBe(404);
      const listed = ((await (await fetch(`${plain.origin}/api/parts`)).json()) as { parts: PartStatus[] }).parts;
      expect(listed.find((part) => part.name === 'label')).toMatchObject({
        source: 'build',
        live: { version: 'construit', contract: '^2.3.0' },
        lastRefusal: null,
      });
    } finally {
      await plain.close();
    }
  }, 60_000);
});
