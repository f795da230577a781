import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from './redis';

// How the server is started (docs/deploy.md, « The server, built »): built, as the service runs it,
// it renders pages on the server with no TypeScript loader; started in a way that cannot render
// them, it refuses to start and says how to start it, in French.

const ROOT = join(__dirname, '..', '..');

/** Starts `args` with node, and gives its output and exit code, or what it served before stopping. */
function run(
  args: string[],
  port: number,
  probe: (origin: string) => Promise<string>,
  env: NodeJS.ProcessEnv = process.env,
) {
  return new Promise<{ code: number | null; output: string; served: string }>((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
    });
    let output = '';
    let served = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
    }
    const origin = `http://127.0.0.1:${String(port)}`;
    let exited = false;
    // One request at a time until the server answers, then it is stopped as a service is.
    const poll = async () => {
      while (!exited) {
        try {
          served = await probe(origin);
          child.kill('SIGTERM');
          return;
        } catch {
          await new Promise((wait) => setTimeout(wait, 200));
        }
      }
    };
    void poll();
    child.on('exit', (code) => {
      exited = true;
      resolve({ code, output, served });
    });
  });
}

const home = async (origin: string) => {
  const res = await fetch(`${origin}/`);
  if (!res.ok) throw new Error(String(res.status));
  return res.text();
};

describe('starting the server', () => {
  it('built (node server/dist/main.js): renders pages on the server, no TypeScript loader', async () => {
    const { served, output } = await run(['--disable-sigusr1', 'server/dist/main.js'], await freePort(), home);
    expect(served).toContain('id="ssr-state"');
    expect(output).not.toContain('React is not defined');
  }, 60_000);

  it('built, with no NODE_ENV (as npm start runs it): React loads its production build', async () => {
    // A hook on every module Node loads says what NODE_ENV was when React's entry loaded: it chooses
    // its build as it runs, just after (the lexer of CommonJS exports reads both builds in any case).
    const dir = mkdtempSync(join(tmpdir(), 'demarrage-'));
    const hook = join(dir, 'hook.mjs');
    writeFileSync(
      hook,
      `import { registerHooks } from 'node:module';
registerHooks({
  load(url, context, next) {
    if (url.endsWith('/node_modules/react/index.js')) process.stderr.write('React chargé, NODE_ENV=' + process.env.NODE_ENV + '\\n');
    return next(url, context);
  },
});
`,
    );
    try {
      const { NODE_ENV: _jest, ...env } = process.env;
      // (The renderers are given the server's preloads, and this one's folder is not in their sandbox:
      // the page is answered for the browser to render, which the test above does not let pass.)
      const { output } = await run(
        ['--disable-sigusr1', '--import', pathToFileURL(hook).href, 'server/dist/main.js'],
        await freePort(),
        home,
        env,
      );
      expect(output).toContain('React chargé, NODE_ENV=production');
      expect(output).not.toMatch(/React chargé, NODE_ENV=(?!production)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('from its sources by a loader without the project’s settings: refuses, and says how', async () => {
    const { code, output, served } = await run(
      ['--disable-sigusr1', '--import', 'tsx', 'server/src/main.ts'],
      await freePort(),
      home,
    );
    expect(code).toBe(1);
    expect(served).toBe('');
    expect(output).toContain('Démarrage refusé');
    expect(output).toContain('node server/dist/main.js');
  }, 60_000);
});
