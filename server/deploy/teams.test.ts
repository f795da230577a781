import { get } from 'node:http';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Redis } from 'ioredis';
import autocannon from 'autocannon';
import { decodeHTML } from 'entities';
import * as tar from 'tar';
import { until } from '@collectif/shared/testing';
import { ROOT, startDeployment, type Deployment, type Instance } from './harness';
import { inspectorAnswers } from '../src/site/render/fixtures';

/** A GET with headers fetch does not send (Host), its body as text. */
function request(url: string, { headers }: { headers: Record<string, string> }): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => {
        resolve(body);
      });
    }).on('error', reject);
  });
}

// A team's deploy on the deployment as shipped (deploy/nginx.conf, docs/deploy.md « Every
// instance »), for real on loopback: two instances of the built site sharing Redis, each with a
// DEPLOY_ROOT of its own (two machines), nginx serving the first one's; the label team deploys
// through the second instance.

const TOKEN = 'label-jeton-de-deploiement-0000000001';

let deployment: Deployment;
let otherRoot: string;

/**
 * The label part as built, its build's record saying which version it is (`mark`); `hostile`, code
 * appended to its server bundle.
 */
async function labelArchive(mark: string, hostile = ''): Promise<Uint8Array<ArrayBuffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'label-'));
  cpSync(join(ROOT, 'mf-label', 'dist'), dir, { recursive: true });
  const info = JSON.parse(readFileSync(join(dir, 'part.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'part.json'), JSON.stringify({ ...info, mark }));
  if (hostile !== '') {
    const bundle = join(dir, 'server', 'remoteEntry.js');
    writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\n${hostile}`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of tar.c({ gzip: true, cwd: dir, portable: true }, ['.'])) chunks.push(Buffer.from(chunk));
  rmSync(dir, { recursive: true, force: true });
  return new Uint8Array(Buffer.concat(chunks));
}

const at = (instance: Instance) => `http://127.0.0.1:${String(instance.port)}`;
const first = () => deployment.instances[0] as Instance;
const second = () => deployment.instances[1] as Instance;

async function send(instance: Instance, path: string, body?: Uint8Array<ArrayBuffer>) {
  const res = await fetch(`${at(instance)}${path}`, {
    method: body === undefined ? 'POST' : 'PUT',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/gzip' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: (await res.json()) as { version?: string; message?: string } };
}

/** Which version of the label an address serves (nginx, or an instance): null for the one built. */
const versionAt = async (origin: string) => {
  const res = await fetch(`${origin}/mf-label/part.json`);
  return ((await res.json()) as { mark?: string }).mark ?? null;
};

/** What each address (nginx, then each instance) said last, for a failure's message. */
let lastSeen: (string | null)[] = [];

/** Every address (nginx and each instance) says the version `mark` (null: none, as built). */
const everywhere = (mark: string | null) => async () => {
  lastSeen = await Promise.all([deployment.origin, ...deployment.instances.map(at)].map(versionAt));
  return lastSeen.every((value) => value === mark);
};
const said = () => `nginx, instances : ${lastSeen.map(String).join(', ')}`;

beforeAll(async () => {
  otherRoot = mkdtempSync(join(tmpdir(), 'deploy-root-'));
  deployment = await startDeployment({
    instances: 2,
    // Teams deploy: the editor has an origin of its own (here a port no one listens on).
    env: { DEPLOY_TOKENS: `label:${TOKEN}`, EDITOR_ORIGIN: 'http://127.0.0.1:9', RENDERERS: '1' },
    instanceEnv: (index, { deployRoot }) => ({ DEPLOY_ROOT: index === 0 ? deployRoot : otherRoot }),
  });
}, 90_000);

afterAll(async () => {
  await deployment.close();
  rmSync(otherRoot, { recursive: true, force: true });
}, 30_000);

/**
 * What a hostile label team appends to its server container, as the issue that made the renderers found
 * it: each try's outcome, shown under the real label page (so that the trial passes it). Redis is
 * tried on its port, as if guessed: without its password.
 */
const HOSTILE = (redisPort: number, outside: string, servers: readonly number[]) => `
(() => {
  const fs = require('node:fs');
  const tries = {};
  // The servers' inspector, opened by a signal: each instance's pid and the renderer's parent.
  for (const signal of ['SIGUSR1', 'SIGSTOP', 'SIGTERM']) {
    for (const pid of ${JSON.stringify(servers)}) {
      try { process.kill(pid, signal); tries['server' + signal] = 'envoyé'; } catch (error) { tries['server' + signal] = String(error.code); }
    }
    try { process.kill(process.ppid, signal); tries['parent' + signal] = 'envoyé'; } catch (error) { tries['parent' + signal] = String(error.code); }
  }
  const attempt = (name, run) => {
    try { tries[name] = String(run()).slice(0, 300); } catch (error) { tries[name] = String((error && error.code) || error); }
  };
  attempt('env', () => JSON.stringify(process.env));
  attempt('parentEnviron', () => fs.readFileSync('/proc/' + process.ppid + '/environ', 'utf8'));
  attempt('outside', () => fs.readFileSync(${JSON.stringify(outside)}, 'utf8'));
  attempt('write', () => { fs.writeFileSync(${JSON.stringify(`${outside}.écrit`)}, 'écrit'); return 'écrit'; });
  attempt('spawn', () => require('node:child_process').execFileSync('id').toString());
  attempt('worker', () => { new (require('node:worker_threads').Worker)('1', { eval: true }); return 'démarré'; });
  tries.redis = 'pas de réponse';
  const socket = require('node:net').connect(${String(redisPort)}, '127.0.0.1', () => {
    socket.write('SET collectif:pris oui\\r\\n');
  });
  socket.on('data', (data) => { tries.redis = data.toString().trim(); socket.destroy(); });
  socket.on('error', (error) => { tries.redis = String(error.code); });
  // The container's exports are getters (webpack's): a container in its place, whose label page
  // shows what was tried, with React from the share scope the renderer gives it.
  const built = module.exports;
  let scope = {};
  module.exports = {
    init: (shareScope, ...rest) => { scope = shareScope; return built.init(shareScope, ...rest); },
    get: (request) => built.get(request).then((factory) => () => {
      const exposed = factory();
      if (request !== './LabelPage') return exposed;
      const React = Object.values(scope.react)[0].lib();
      const Label = exposed.default;
      return {
        ...exposed,
        default: (props) =>
          React.createElement(React.Fragment, null, React.createElement(Label, props), React.createElement('pre', { id: 'essais' }, JSON.stringify(tries))),
      };
    }),
  };
})();
`;

describe('a hostile team', () => {
  it('deploys a label whose server code reaches nothing: no secret, no file, no process, no Redis, no server to signal', async () => {
    const redis = deployment.redis;
    if (redis === null) throw new Error('Redis attendu');
    const password = decodeURIComponent(new URL(redis.url).password);
    const outside = join(otherRoot, '..', `secret-${String(process.pid)}.json`);
    writeFileSync(outside, '{"secret":"contenu hors de la partie"}');
    try {
      const answer = await send(
        second(),
        '/api/parts/label',
        await labelArchive(
          'hostile',
          HOSTILE(
            redis.port,
            outside,
            deployment.instances.flatMap((instance) => instance.process?.pid ?? []),
          ),
        ),
      );
      expect(answer.status).toBe(200);
      await until(everywhere('hostile'), { timeoutMs: 5000, everyMs: 50, what: 'la version hostile en ligne' });
      // Rendered by a serving renderer (the Redis try answers a moment after evaluation).
      let page = '';
      await until(
        async () => {
          // A new address each time: the page cache keeps a page rendered before Redis answered.
          page = await (await fetch(`${at(first())}/label?essai=${String(Date.now())}`)).text();
          return page.includes('id="essais"') && !page.includes('pas de réponse');
        },
        { timeoutMs: 10_000, everyMs: 200, what: 'les essais sur la page du label' },
      ).catch(async (error: unknown) => {
        throw new Error(
          `${String(error)} : ${await (await fetch(`${at(first())}/readyz`)).text()} ${page.slice(page.indexOf('essais') - 20, page.indexOf('essais') + 1200)}`,
        );
      });
      const shown = decodeHTML(/<pre id="essais">([^<]*)<\/pre>/.exec(page)?.[1] ?? '{}');
      const tries = JSON.parse(shown) as Record<string, string>;
      expect(Object.keys(JSON.parse(tries.env ?? '{}') as object)).not.toContain('REDIS_URL');
      for (const name of ['parentEnviron', 'outside', 'write', 'spawn', 'worker']) {
        expect([name, tries[name]]).toEqual([name, 'ERR_ACCESS_DENIED']);
      }
      // Behind the walls (docs/rendering.md, « The sandbox »): no socket reaches Redis, no signal a server.
      expect(tries.redis).toBe('ECONNREFUSED');
      for (const signal of ['SIGUSR1', 'SIGSTOP', 'SIGTERM']) {
        expect([signal, tries[`server${signal}`]]).toEqual([signal, 'ESRCH']);
      }
      expect(await inspectorAnswers()).toBe(false);
      for (const instance of deployment.instances) {
        expect((await fetch(`http://127.0.0.1:${String(instance.port)}/healthz`)).status).toBe(200);
      }
      // Nothing it could have said: not in the page, the parts' list, the command's answer, the logs.
      const parts = await (await fetch(`${at(first())}/api/parts`)).text();
      for (const said of [page, parts, JSON.stringify(answer.body), deployment.errors()]) {
        for (const secret of [TOKEN, password, 'contenu hors de la partie']) expect(said).not.toContain(secret);
      }
      expect(existsSync(`${outside}.écrit`)).toBe(false);
    } finally {
      rmSync(outside, { force: true });
      await send(first(), '/api/parts/label/rollback');
      await until(everywhere(null), { timeoutMs: 5000, everyMs: 50, what: 'la version construite partout' });
    }
  }, 60_000);
});

describe('a team deploys to a site of two instances behind nginx', () => {
  it('is live on every instance and on the files nginx serves within 5 s, with no failed request under load', async () => {
    // Visitors meanwhile: pages of the part and its entry, through nginx.
    let load: autocannon.Instance | undefined;
    const loaded = new Promise<autocannon.Result>((resolve) => {
      load = autocannon(
        {
          url: deployment.origin,
          connections: 4,
          duration: 60,
          requests: [{ path: '/label' }, { path: '/mf-label/remoteEntry.js' }, { path: '/a-propos' }],
        },
        (_error, result) => {
          resolve(result);
        },
      );
    });
    // Visitors served before the deploy, between it and the rollback, and after the rollback: the
    // load spans both switches (how many answers that is depends on the machine, not asserted).
    let served = 0;
    load?.on('response', () => {
      served += 1;
    });
    const servedAfter = async (count: number, what: string) => {
      await until(() => served > count, { timeoutMs: 10_000, everyMs: 10, what });
      return served;
    };
    const beforeDeploy = await servedAfter(0, 'des visiteurs servis avant le déploiement');

    const answer = await send(second(), '/api/parts/label', await labelArchive('v2'));
    expect(answer.status).toBe(200);
    await until(everywhere('v2'), { timeoutMs: 5000, everyMs: 50, what: 'v2 en ligne partout' }).catch(
      (error: unknown) => {
        throw new Error(`${String(error)} (${said()})`);
      },
    );

    const deployed = await servedAfter(beforeDeploy, 'des visiteurs servis après le déploiement');
    const back = await send(first(), '/api/parts/label/rollback');
    expect(back.status).toBe(200);
    expect(back.body.version).toBe('construit');
    await until(everywhere(null), { timeoutMs: 5000, everyMs: 50, what: 'la version construite partout' }).catch(
      (error: unknown) => {
        throw new Error(`${String(error)} (${said()})`);
      },
    );

    await servedAfter(deployed, 'des visiteurs servis après le retour arrière');

    load?.stop();
    const result = await loaded;
    if (result.errors + result.timeouts + result.non2xx > 0) console.log(deployment.errors().slice(-3000));
    expect(result.errors + result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result.requests.total).toBe(served);
  }, 60_000);

  it('keeps the files of the version a visitor’s page came with, across a switch', async () => {
    const page = await (await fetch(`${deployment.origin}/label`)).text();
    const manifest = (await (await fetch(`${deployment.origin}/mf-label/mf-manifest.json`)).json()) as {
      exposes: { assets: { js: { sync: string[] } } }[];
    };
    const chunk = manifest.exposes[0]?.assets.js.sync[0] ?? '';
    expect(page).toContain('mf-label');
    expect((await send(second(), '/api/parts/label', await labelArchive('v3'))).status).toBe(200);
    await until(everywhere('v3'), { timeoutMs: 5000, everyMs: 50, what: 'v3 en ligne partout' });
    // The chunk the open page would ask for next is still there, whichever version it is in.
    expect((await fetch(`${deployment.origin}/mf-label/${chunk}`)).status).toBe(200);
  }, 30_000);

  it('reaches an instance started later, from Redis, with a DEPLOY_ROOT of its own', async () => {
    await deployment.stop(first());
    rmSync(first().env.DEPLOY_ROOT ?? '', { recursive: true, force: true });
    await deployment.start(first());
    expect(await versionAt(at(first()))).toBe('v3');
    expect(await versionAt(deployment.origin)).toBe('v3');
    const parts = (await (await fetch(`${at(first())}/api/parts`)).json()) as {
      parts: { name: string; source: string; live: { by: string } | null }[];
    };
    expect(parts.parts.find((part) => part.name === 'label')).toMatchObject({
      source: 'deploy',
      live: { by: 'équipe label' },
    });
  }, 60_000);
});

/**
 * Redis trusted no further than its password (docs/deploy.md, « Redis »): whoever has it, but not
 * the instances' key (SITE_SECRET), writes messages and keys as the instances would, with names
 * climbing out of the deploy folder, a forged archive, an account of their own and a session.
 */
describe('a forged Redis', () => {
  it('gets nothing served, unpacked, deleted or signed in, and the site keeps serving', async () => {
    if (deployment.redis === null) throw new Error('Redis attendu');
    const redis = new Redis(deployment.redis.url);
    const victim = mkdtempSync(join(tmpdir(), 'victime-'));
    writeFileSync(join(victim, 'garder.txt'), 'à garder');
    try {
      const mark = await versionAt(at(second()));
      const receivedAt = new Date().toISOString();
      const wellFormed = '2026-11-26T04-14-19-123Z-abcdef';
      const forgedLive = [
        // Out of the part's versions folder, to a folder a prune would delete.
        { part: 'label', id: relative(join(otherRoot, 'label', 'versions'), victim), receivedAt, about: {} },
        { part: '../../label', id: wellFormed, receivedAt, about: {} },
        // Well-formed, with an archive of the forger's own: code no team sent.
        { part: 'label', id: wellFormed, receivedAt, about: { by: 'équipe label' } },
        // The part as built, to roll the label back behind the team's back.
        { part: 'label', id: 'construit', receivedAt, about: {} },
      ];
      const archive = `collectif:deploy:archive:label:${wellFormed}`;
      await redis.set(archive, Buffer.from(await labelArchive('forgé')));
      await redis.set(`${archive}:signature`, 'signature-inventee');
      for (const live of forgedLive) {
        const text = JSON.stringify(live);
        for (const message of [text, `signature-inventee.${text}`]) {
          await redis.hset('collectif:deploy:versions', 'label', message);
          await redis.publish('collectif:deploy:live', message);
        }
      }
      // An admin account of the forger's own, as a content version said through Redis.
      const accounts = {
        id: '29991231T235959999Z-abcdef',
        kind: 'accounts',
        savedAt: receivedAt,
        by: 'intrus',
        data: {
          accounts: [
            {
              name: 'intrus',
              role: 'admin',
              createdAt: receivedAt,
              invitedBy: 'intrus',
              passkeys: [{ id: 'Y2xl', publicKey: 'cHVibGlj', counter: 0, createdAt: receivedAt }],
            },
          ],
          invitations: [],
        },
      };
      await redis.hset('collectif:content:current', 'accounts', JSON.stringify(accounts));
      await redis.publish('collectif:content:current', JSON.stringify(accounts));
      // A session written as the instances would have before its key was hashed.
      await redis.set('collectif:editeurs:session:session-inventee', `intrus\n${String(Date.now())}`, 'PX', 60_000);

      // An instance that starts reads all of it too.
      await deployment.stop(first());
      await deployment.start(first());
      await until(() => first().log.join('').includes('ignoré'), { timeoutMs: 5000, what: 'le contenu forgé ignoré' });

      expect(readFileSync(join(victim, 'garder.txt'), 'utf8')).toBe('à garder');
      for (const instance of deployment.instances) {
        expect(await versionAt(at(instance))).toBe(mark);
        expect((await fetch(`${at(instance)}/label`)).status).toBe(200);
        // Asked on the editor's host (EDITOR_ORIGIN, above), where the editor's routes answer.
        const me = await request(`${at(instance)}/api/editor/me`, {
          headers: { host: '127.0.0.1:9', cookie: 'collectif_editeur=session-inventee' },
        });
        expect(JSON.parse(me)).toBeNull();
        // No version of the accounts holds the forger's account (none at all: nobody saved any).
        const versions = join(instance.env.CONTENT_DIR ?? '', 'accounts', 'versions');
        const kept = existsSync(versions)
          ? readdirSync(versions).map((name) => readFileSync(join(versions, name), 'utf8'))
          : [];
        expect(kept.join('\n')).not.toContain('intrus');
        const root = instance.env.DEPLOY_ROOT ?? '';
        expect(existsSync(join(root, 'label', 'versions', wellFormed))).toBe(false);
      }
      expect(await versionAt(deployment.origin)).toBe(mark);
    } finally {
      redis.disconnect();
      rmSync(victim, { recursive: true, force: true });
    }
  }, 60_000);
});
