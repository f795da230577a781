import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { REMOTE_PARTS } from '@collectif/shared';
import { declaredPages } from '@collectif/shared/testing';
import { buildApp } from './app/app';
import { testConfig } from './api/testing/fixtures';
import { isDescribed } from './api/plugins/openapi';
import { ROLES } from './content/editors';
import { readSiteServerConfig, workspaceRoot } from './settings/config';

/**
 * Docs that match the code: every repository path README.md and docs/*.md name exists, every npm
 * command they give runs a script that exists, and docs/server.md's table of plugins and routes
 * is what server/src/app/app.ts registers. When one fails, fix the doc (or the code), not this file.
 */

interface Doc {
  /** Relative to the repository, with forward slashes: `docs/server.md`. */
  file: string;
  text: string;
}

const read = (file: string): string => readFileSync(join(workspaceRoot, file), 'utf8');

const DOCS: Doc[] = [
  'README.md',
  ...readdirSync(join(workspaceRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
].map((file) => ({ file, text: read(file) }));

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;

/** A doc's fenced code blocks, with their language (`sh`, `ts`, or '' when none is given). */
function fencedBlocks(text: string): { language: string; code: string }[] {
  return [...text.matchAll(FENCE)].map((match) => ({ language: (match[1] ?? '').trim(), code: match[2] ?? '' }));
}

/** A doc's text outside its fenced code blocks. */
const prose = (text: string): string => text.replace(FENCE, '');

/** Inline code (a span may run over a line break, which reads as a space). */
const inlineCode = (text: string): string[] =>
  [...prose(text).matchAll(/`([^`]+)`/g)].map((match) => (match[1] ?? '').replace(/\s+/g, ' ').trim());

/** Link targets: `[text](target)`. */
const linkTargets = (text: string): string[] =>
  [...prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');

/** The repository's top-level folders (a path names a file of the repository when it starts with one). */
const TOP_FOLDERS = new Set(
  readdirSync(workspaceRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
    .map((entry) => entry.name),
);

/**
 * What .gitignore names (node_modules, every part's dist/ and dist-embed/, .tsbuild/, the generated
 * shared/assets/ and server/.demo/, test reports) is made by a build or a run, absent from a fresh
 * clone: a doc may name it, and it is not looked for. The patterns are read as git reads the simple
 * ones the file has: a leading or inner `/` anchors at the root, `*` is any part of one name.
 */
const IGNORED: RegExp[] = read('.gitignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'))
  .map((line) => {
    const pattern = line.replace(/\/$/, '');
    const anchored = pattern.includes('/');
    const body = pattern
      .replace(/^\//, '')
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*');
    return new RegExp(`${anchored ? '^' : '(?:^|/)'}${body}(?:/|$)`);
  });

const isIgnored = (path: string): boolean => IGNORED.some((pattern) => pattern.test(path));

/**
 * A name that stands for many paths is not one path: one with `<` or `>` (`mf-<name>/`), `*`,
 * `…`, `{`/`}`, `[`/`]` (`main.[hash].js`), `$` or `:` (an address or a line number) is skipped.
 */
const isPlaceholder = (path: string): boolean => /[<>*…{}[\]$:]/.test(path);

/**
 * The repository paths a doc names:
 * - in inline code, every word whose first folder is a top-level folder of the repository and that
 *   goes on past it (`server/src/site/published.ts`, `node bench/first-load.mjs`); a word with no `/`
 *   or starting with `/` (an address on the site: `/api/podcasts`) is not a repository path;
 * - every link that is not an address (`[parts.md](parts.md)`, `[deploy/](deploy)`), from the doc's
 *   folder, anchor removed;
 * - every `docs/<name>.md` written in plain text;
 * - in README.md, every line of the « Layout » block: a name at the start of the line is at the
 *   root, an indented one inside the closest less indented folder above it.
 */
function namedPaths(doc: Doc): string[] {
  const paths: string[] = [];
  for (const code of inlineCode(doc.text)) {
    for (const word of code.split(/[\s=,;'"()]+/)) {
      const [first, ...rest] = word.split('/');
      if (first !== undefined && TOP_FOLDERS.has(first) && rest.length > 0 && rest[0] !== '') paths.push(word);
    }
  }
  for (const target of linkTargets(doc.text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const path = target.replace(/#.*$/, '');
    paths.push(posix.normalize(posix.join(posix.dirname(doc.file), path)));
  }
  for (const match of doc.text.matchAll(/(?<![\w./-])docs\/[\w.-]+\.md/g)) paths.push(match[0]);
  if (doc.file === 'README.md') paths.push(...layoutPaths(doc.text));
  return paths;
}

/** The paths of README.md's « Layout » block. */
function layoutPaths(text: string): string[] {
  const section = text.split(/^## Layout$/m)[1] ?? '';
  const block = fencedBlocks(section)[0]?.code ?? '';
  const paths: string[] = [];
  const parents: { indent: number; path: string }[] = [];
  for (const line of block.split('\n')) {
    const match = /^( *)(\S+)/.exec(line);
    if (match === null) continue;
    const indent = (match[1] ?? '').length;
    while (parents.length > 0 && (parents.at(-1)?.indent ?? 0) >= indent) parents.pop();
    const path = `${parents.at(-1)?.path ?? ''}${match[2] ?? ''}`;
    paths.push(path);
    if (path.endsWith('/')) parents.push({ indent, path });
  }
  return paths;
}

describe('the paths the docs name', () => {
  it('finds the docs and the paths in them', () => {
    expect(DOCS.map((doc) => doc.file)).toEqual(expect.arrayContaining(['README.md', 'docs/server.md']));
    expect(layoutPaths(DOCS[0]?.text ?? '')).toEqual(expect.arrayContaining(['shared/src/events/', 'server/src/app/']));
  });

  it('docs/README.md links every page of docs/', () => {
    const index = DOCS.find((doc) => doc.file === 'docs/README.md');
    const linked = new Set(linkTargets(index?.text ?? ''));
    const pages = DOCS.filter((doc) => doc.file.startsWith('docs/') && doc.file !== 'docs/README.md').map((doc) =>
      doc.file.slice('docs/'.length),
    );
    expect(pages.filter((name) => !linked.has(name))).toEqual([]);
  });

  it.each(DOCS.map((doc) => [doc.file, doc] as const))('every path %s names exists', (_file, doc) => {
    const missing = [...new Set(namedPaths(doc))]
      .filter((path) => !isPlaceholder(path) && !isIgnored(path))
      .filter((path) => {
        const full = join(workspaceRoot, path);
        // A name ending with `/` is a folder.
        return !existsSync(full) || (path.endsWith('/') && !statSync(full).isDirectory());
      });
    expect(missing).toEqual([]);
  });
});

/** npm's own commands a doc may give (`npm ci`); `start`, `test`, `stop` and `restart` run scripts. */
const NPM_COMMANDS = new Set(['ci', 'install', 'i', 'uninstall', 'update', 'exec', 'ls', 'pkg', 'outdated', 'audit']);
const SCRIPT_SHORTHANDS = new Set(['start', 'test', 'stop', 'restart']);

interface NpmCommand {
  text: string;
  /** The script it runs, if any. */
  script: string | null;
  /** The workspace it runs in (`-w server`), else the root. */
  workspace: string | null;
  /** npm's own command when it runs no script. */
  builtin: string | null;
}

/**
 * Every npm command in inline code and in shell blocks (```sh, ```bash, ```shell, ```console), read
 * up to `&&`, `;`, `|`, `#` or a line's end: `npm run <script>` and `npm start`/`npm test` run a
 * script of the root package.json, or of the workspace named by `-w`/`--workspace`; any other
 * `npm <command>` must be one of npm's own. Arguments after `--` go to the script.
 */
function npmCommands(doc: Doc): NpmCommand[] {
  const code = [
    ...inlineCode(doc.text),
    ...fencedBlocks(doc.text)
      .filter((block) => ['sh', 'bash', 'shell', 'console'].includes(block.language))
      .flatMap((block) => block.code.split('\n')),
  ];
  const commands: NpmCommand[] = [];
  for (const text of code) {
    for (const match of text.matchAll(/(?<![\w-])npm\s+([^&;|#\n]*)/g)) {
      const words = (match[1] ?? '').trim().split(/\s+/);
      const end = words.indexOf('--');
      const args = end === -1 ? words : words.slice(0, end);
      let workspace: string | null = null;
      const positional: string[] = [];
      for (let i = 0; i < args.length; i += 1) {
        const word = args[i] ?? '';
        if (word === '-w' || word === '--workspace') {
          workspace = args[i + 1] ?? null;
          i += 1;
        } else if (word.startsWith('--workspace=')) workspace = word.slice('--workspace='.length);
        else if (!word.startsWith('-')) positional.push(word);
      }
      const [command = '', script = null] = positional;
      const runs = command === 'run' || command === 'run-script';
      commands.push({
        text: `npm ${match[1] ?? ''}`.trim(),
        script: runs ? script : SCRIPT_SHORTHANDS.has(command) ? command : null,
        workspace,
        builtin: runs || SCRIPT_SHORTHANDS.has(command) ? null : command,
      });
    }
  }
  return commands;
}

const scriptsOf = (folder: string): Record<string, string> =>
  (JSON.parse(read(`${folder}/package.json`)) as { scripts?: Record<string, string> }).scripts ?? {};

describe('the names the docs give in capitals', () => {
  // A constant, a setting or a header the docs name (`PAGE_CACHE_BYTES`, `REDIS_URL`): a name changed
  // in the code and not in the docs fails here. Compared without case: the docs write Redis's and
  // nginx's words in capitals (`HGETALL`, `UPDATING`), the code in lower case.
  const code = execFileSync(
    'git',
    ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mjs', '*.conf', '*.service', '*.example', '*.acl'],
    {
      cwd: workspaceRoot,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(workspaceRoot, file)))
    .map(read)
    .join('\n')
    .toLowerCase();

  it.each(DOCS.map((doc) => [doc.file, doc] as const))(
    'every name %s gives in capitals is in the code',
    (_file, doc) => {
      const names = [...doc.text.matchAll(/`([A-Z][A-Z0-9_]{2,})(?:=[^`]*)?`/g)].map((match) => match[1] ?? '');
      const missing = [...new Set(names)].filter((name) => !new RegExp(`\\b${name.toLowerCase()}\\b`).test(code));
      expect(missing).toEqual([]);
    },
  );
});

describe('the npm commands the docs give', () => {
  it('finds them', () => {
    const readme = npmCommands(DOCS[0] as Doc);
    expect(readme.map((command) => command.script)).toEqual(expect.arrayContaining(['start', 'test', 'doctor']));
    expect(readme.map((command) => command.builtin)).toContain('ci');
  });

  it.each(DOCS.map((doc) => [doc.file, doc] as const))('every npm command %s gives runs', (_file, doc) => {
    const wrong = npmCommands(doc).filter(({ script, workspace, builtin }) => {
      if (builtin !== null) return !NPM_COMMANDS.has(builtin);
      if (script === null) return true;
      return !Object.hasOwn(scriptsOf(workspace ?? '.'), script);
    });
    expect(wrong.map((command) => command.text)).toEqual([]);
  });
});

/** A route as docs/server.md writes it: `GET /api/podcasts`, one line per method. */
const routeKey = (method: string, url: string): string => `${method} ${url}`;

/**
 * A remote's folder in a path is written `<folder>` (`/<folder>/*`, `/_dev/<folder>/`): the app
 * registers one route per remote, the doc one line for them all.
 */
const REMOTE_FOLDERS = new Set<string>(REMOTE_PARTS.map((part) => part.folder));
const generic = (url: string): string =>
  url
    .split('/')
    .map((segment) => (REMOTE_FOLDERS.has(segment) ? '<folder>' : segment))
    .join('/');

/**
 * The table of docs/server.md, « Layout »: one row per plugin, its name in the first cell's code,
 * its routes in the last cell, each as `METHOD /path` (`GET,POST /path` for several methods).
 */
function documentedLayout(): { plugins: string[]; routes: string[] } {
  const section =
    read('docs/server.md')
      .split(/^## Layout$/m)[1]
      ?.split(/^## /m)[0] ?? '';
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
        .split('|')
        .map((cell) => cell.trim()),
    );
  const header = rows.findIndex((cells) => cells[0] === 'plugin');
  if (header === -1) throw new Error('docs/server.md, « Layout »: no table whose first column is « plugin »');
  const body = rows.slice(header + 2).filter((cells) => cells.length > 1);
  const plugins = body.map((cells) => /`([^`]+)`/.exec(cells[0] ?? '')?.[1] ?? `(no name: ${cells.join(' | ')})`);
  const routes = body.flatMap((cells) =>
    [...(cells.at(-1) ?? '').matchAll(/`([A-Z]+(?:,[A-Z]+)*) (\/[^`\s]*)`/g)].flatMap((match) =>
      (match[1] ?? '').split(',').map((method) => routeKey(method, match[2] ?? '')),
    ),
  );
  return { plugins, routes };
}

/**
 * The names in Fastify's tree of plugins (`printPlugins()`): what `fp(fn, { name })` registered, else
 * the function's name. Fastify's own entries (`root`, `bound _after`) are not plugins, and what a
 * package registers inside itself (`@fastify/http-proxy` brings `@fastify/reply-from`) is the
 * package's business: the doc lists what this server registers.
 */
function registeredPlugins(app: FastifyInstance): string[] {
  const names: string[] = [];
  const stack: { depth: number; name: string }[] = [];
  for (const line of app.printPlugins().split('\n')) {
    const match = /^([\s│├└─┬]*)(.+?) \d+ ms$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length;
    const name = match[2] ?? '';
    while (stack.length > 0 && (stack.at(-1)?.depth ?? 0) >= depth) stack.pop();
    const insidePackage = stack.some((parent) => parent.name.startsWith('@'));
    stack.push({ depth, name });
    if (depth === 0 || name === 'bound _after' || insidePackage) continue;
    names.push(name);
  }
  return names;
}

describe('docs/server.md, « Layout »', () => {
  let dir: string;
  let app: FastifyInstance;
  /** Every route the app adds, HEAD left out (Fastify answers it beside each GET). */
  const routes: string[] = [];
  /** Those the public may call: the API's description is for them (docs/api.md, « The description »). */
  const publicApi: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docs-'));
    // The embeddable player built, so that its files are served.
    mkdirSync(join(dir, 'mf-player', 'dist-embed'), { recursive: true });
    // Every route of the app: demo mode with the admin's switch, a remote in development. Fastify
    // announces each instance it makes (its `fastify.initialization` channel), before any plugin.
    const onRoute = (route: RouteOptions): void => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        routes.push(routeKey(method, generic(route.url)));
        if (isDescribed(route)) publicApi.push(routeKey(method, generic(route.url)));
      }
    };
    const onInstance = (message: unknown): void => {
      (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', onRoute);
    };
    subscribe('fastify.initialization', onInstance);
    try {
      const site = readSiteServerConfig({
        DIST_ROOT: dir,
        ASSETS_DIR: join(dir, 'assets'),
        DEV_REMOTES: JSON.stringify({ radio: 'http://127.0.0.1:9' }),
        RENDERERS: '1',
        // Every optional plugin on: teams' deploys too.
        DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres',
        EDITOR_ORIGIN: 'http://edition.localhost:8080',
      });
      // The live's timeline kept (its routes; no recorder: the app does not listen).
      const timeshift = { hours: 4, dir: join(dir, 'direct'), segmentSeconds: 10 };
      app = await buildApp({ site, api: testConfig({ adminToken: 'jeton-de-test', timeshift }) });
    } finally {
      unsubscribe('fastify.initialization', onInstance);
    }
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names every plugin the app registers, and only those', () => {
    const documented = documentedLayout().plugins;
    const registered = new Set(registeredPlugins(app));
    expect(registered.size).toBeGreaterThan(10);
    expect({
      registeredButNotInTheDoc: [...registered].filter((name) => !documented.includes(name)),
      inTheDocButNotRegistered: documented.filter((name) => !registered.has(name)),
    }).toEqual({ registeredButNotInTheDoc: [], inTheDocButNotRegistered: [] });
  });

  it('describes every /api route the public may call in the API’s OpenAPI document, and only those (docs/api.md)', () => {
    const described = Object.entries(
      (app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths,
    ).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== 'head')
        .map((method) => routeKey(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1'))),
    );
    const api = [...new Set(publicApi)];
    expect(api.length).toBeGreaterThan(30);
    expect({
      registeredButNotDescribed: api.filter((route) => !described.includes(route.replace(/\*$/, ':*'))),
      describedButNotRegistered: described.filter((route) => !api.includes(route.replace(/:\*$/, '*'))),
    }).toEqual({ registeredButNotDescribed: [], describedButNotRegistered: [] });
  });

  it('names every route the app answers, and only those', () => {
    const documented = documentedLayout().routes;
    const registered = new Set(routes);
    expect(registered).toContain('GET /api/podcasts');
    expect({
      registeredButNotInTheDoc: [...registered].filter((route) => !documented.includes(route)),
      inTheDocButNotRegistered: documented.filter((route) => !registered.has(route)),
    }).toEqual({ registeredButNotInTheDoc: [], inTheDocButNotRegistered: [] });
  });
});

/**
 * Claims of the docs about the code's shape, each checked against the code: a list of files
 * against the folder, a count against the modules, a pin against package.json.
 */
describe('what the docs say of the code', () => {
  const sourceFiles = (dir: string) =>
    readdirSync(join(workspaceRoot, dir))
      .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
      .sort();

  it('README.md lists every definition file of mf-radio/src/pages/, and only those', () => {
    const line = read('README.md')
      .split('\n')
      .find((each) => each.trimStart().startsWith('src/pages/'));
    expect(line).toBeDefined();
    const listed = [...(line ?? '').matchAll(/([\w-]+\.ts)\b/g)].map((match) => match[1]).sort();
    expect(listed).toEqual(sourceFiles('mf-radio/src/pages'));
  });

  it('docs/parts.md names every definition with a file of its own', () => {
    const parts = read('docs/parts.md');
    const files = REMOTE_PARTS.flatMap(({ folder }) =>
      existsSync(join(workspaceRoot, folder, 'src', 'pages'))
        ? sourceFiles(`${folder}/src/pages`).map((name) => `${folder}/src/pages/${name}`)
        : [],
    );
    const named = [...parts.matchAll(/`(mf-\w+\/src\/pages\/[\w-]+\.ts)`/g)].map((match) => match[1]).sort();
    expect([...new Set(named)]).toEqual(files.sort());
    // No count of the others by hand: the pages are listed from the table (« the docs’ inventories », below).
    expect(/\b(\w+) others are in their\s+modules/.exec(parts)?.[1]).toBe('The');
  });

  it('every package package.json says is pinned has a range that pins it, given as README.md gives it', () => {
    const manifest = JSON.parse(read('package.json')) as {
      devDependencies: Record<string, string>;
      optionalDependencies: Record<string, string>;
      '//pins': Record<string, string>;
    };
    // Node's binary packages are optional: each fits one platform (package.json, « //pins »).
    const rangeOf = (name: string) => manifest.devDependencies[name] ?? manifest.optionalDependencies[name];
    const readme = read('README.md').replace(/\s+/g, ' ');
    for (const name of Object.keys(manifest['//pins'])) {
      const range = rangeOf(name) ?? '';
      // Pinned: one version, or one minor (`~`); a caret range lets npm take the next minor.
      expect([name, range]).toEqual([name, expect.stringMatching(/^~?\d+\.\d+\.\d+$/)]);
    }
    for (const claim of readme.matchAll(/pinned in package\.json as ((?:`[^`]+`(?:,| and)? ?)+)/g)) {
      const given = [...(claim[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]);
      const ranges = Object.keys(manifest['//pins']).map(rangeOf);
      for (const range of given) expect(ranges).toContain(range);
    }
  });
});

/**
 * The docs' inventories come from the code (docs/parts.md, « Pages »): the list of each part's pages
 * is a block generated from the page table the parts' modules declare (`declaredPages`), docs/site.md's
 * table of routes has one row per page of it, and every list of the editors' roles is the one the
 * server declares (`ROLES`). `UPDATE_DOCS=1 npx jest server/src/docs.test.ts` writes the pages' block
 * again.
 */
const PAGES_DOC = 'docs/parts.md';
const START = '<!-- pages:start (generated: UPDATE_DOCS=1 npx jest server/src/docs.test.ts) -->';
const END = '<!-- pages:end -->';

/** Every page of the table, by part in the registry's order, each part's in its menu order. */
function pagesBlock(): string {
  const pages = declaredPages();
  const rows = REMOTE_PARTS.flatMap((part) =>
    pages
      .filter((page) => page.remote === part.name)
      .map(
        (page) =>
          `| ${part.folder} | \`/${page.path}\` | \`${page.module}\` | « ${page.title} » | ${page.menu === undefined ? '' : `« ${page.menu} »`} |`,
      ),
  );
  const parts = REMOTE_PARTS.filter((part) => pages.some((page) => page.remote === part.name));
  return [
    START,
    '',
    `${String(pages.length)} pages, in ${String(parts.length)} parts:`,
    '',
    '| part | address | module | title | in the menu |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    END,
  ].join('\n');
}

describe('the docs’ inventories', () => {
  it(`${PAGES_DOC} lists every page of the table, by part`, () => {
    const doc = read(PAGES_DOC);
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect([start, end].every((at) => at !== -1)).toBe(true);
    const generated = pagesBlock();
    if (process.env.UPDATE_DOCS === '1')
      writeFileSync(join(workspaceRoot, PAGES_DOC), doc.slice(0, start) + generated + doc.slice(end + END.length));
    else expect(doc.slice(start, end + END.length)).toBe(generated);
  });

  it(`${PAGES_DOC} names the parts that have pages`, () => {
    // « **Which parts have pages**: radio, label, about and admin. »
    const sentence = /\*\*Which parts have pages\*\*: ([^.]+)\./.exec(read(PAGES_DOC))?.[1] ?? '';
    const named = sentence.split(/, | and /).map((name) => name.trim());
    const pages = declaredPages();
    expect(named).toEqual(
      REMOTE_PARTS.filter((part) => pages.some((page) => page.remote === part.name)).map((part) => part.name),
    );
  });

  it('docs/site.md, « Routes and titles », has a row for every page of the table, and only those', () => {
    const section =
      read('docs/site.md')
        .split(/^## Routes and titles$/m)[1]
        ?.split(/^## /m)[0] ?? '';
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| `/'))
      .map((line) => /^\| `([^`]+)`/.exec(line)?.[1]);
    expect([...rows].sort()).toEqual(
      declaredPages()
        .map((page) => `/${page.path}`)
        .sort(),
    );
  });

  it('README.md names no part’s pages by hand in its « Layout »', () => {
    // A part's line says what it is and points to the generated list, which cannot drift.
    const layout =
      read('README.md')
        .split(/^## Layout$/m)[1]
        ?.split(/^## /m)[0] ?? '';
    const titles = declaredPages()
      .map((page) => page.title.split(' · ')[0] ?? '')
      .filter((title) => title.length > 6);
    expect(titles.length).toBeGreaterThan(5);
    expect(titles.filter((title) => layout.includes(`« ${title} »`))).toEqual([]);
  });

  it('every list of the roles is the one the server declares', () => {
    const lists: string[][] = [];
    for (const file of ['README.md', 'docs/content.md']) {
      // `--role <admin|residence|…>` in a command's usage.
      for (const match of read(file).matchAll(/--role <([^>]+)>/g))
        lists.push((match[1] ?? '').replace(/\\/g, '').split('|'));
    }
    // docs/content.md, « Accounts »: « a role (`admin`, `residence` with its residence, …) ».
    const sentence = /a role \(([^)]+)\)/.exec(read('docs/content.md').replace(/\s+/g, ' '))?.[1] ?? '';
    lists.push([...sentence.matchAll(/`(\w+)`/g)].map((match) => match[1] ?? ''));
    // The admin's command says its own usage (server/src/admin/cli.ts).
    const cli = /--role <([^>]+)>/.exec(read('server/src/admin/cli.ts'))?.[1] ?? '';
    lists.push(cli.split('|'));
    expect(lists.length).toBeGreaterThan(2);
    for (const list of lists) expect(list).toEqual([...ROLES]);
  });
});
