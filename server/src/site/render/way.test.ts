import childProcess, { type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap, type SourceMapPayload } from 'node:module';
import type { Socket } from 'node:net';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app/app';
import { testConfig } from '../../api/testing/fixtures';
import { readSiteServerConfig, workspaceRoot } from '../../settings/config';
import { RENDERER_FLAG } from './renderer';

/**
 * docs/rendering.md, « A page's way, file by file »: which of the server's own modules run for one
 * page, measured by running it. The app is built here as the server's tests build it, on the built
 * parts (`npm run build`), with one renderer process; one residence's page is answered once (its
 * part's containers loaded by another residence's page before), and V8's precise coverage says
 * which functions ran during that request, in this process and in the renderer. The files they are
 * in, with their lines, are the doc's generated block: this test fails when the block differs from
 * what ran, and `UPDATE_WAY=1 npx jest server/src/site/render/way.test.ts` writes it again.
 */

const DOC = join(workspaceRoot, 'docs', 'rendering.md');
const SOURCES = join(workspaceRoot, 'server', 'src');
const START = '<!-- way:start (generated: UPDATE_WAY=1 npx jest server/src/site/render/way.test.ts) -->';
const END = '<!-- way:end -->';
/** The renderer's channel for its coverage, after its own (fd 3 to fd 7) and bubblewrap's seccomp filter (fd 8). */
const COVERAGE_FD = 9;

/**
 * The demo's residences whose pages are measured, each once, and another one that loads the part's
 * containers first. A module counts when it ran for every one of them: what a timer of the server ran
 * meanwhile (the now-playing poll, the figures' sample), which a loaded machine may fit in one page's
 * time, is not the page's way.
 */
const PAGES = ['/residences/axonberg', '/residences/la-brume', '/residences/kalibre-mona-vex'];
const PAGE = PAGES[0] ?? '';
const WARM_UP = '/residences/158cm';

interface FunctionCoverage {
  ranges: { startOffset: number; endOffset: number; count: number }[];
}
interface ScriptCoverage {
  scriptId?: string;
  url: string;
  functions: FunctionCoverage[];
}

/** What one process did with the server's modules for a page. */
interface Ran {
  /** Modules with code of their own that ran. */
  code: Set<string>;
  /** Modules of which only an export was read (their getters, below), with no code of theirs run. */
  read: Set<string>;
}

/**
 * Where a module compiled for jest reads its exports: SWC writes ES modules as CommonJS whose
 * exports are getters, in one `_export(exports, { get name () { return name; } })` call at the top,
 * and a module's `export * from` through its `_export_star` helper's getter. A getter that ran says
 * a value of the module was read (a constant, a function then run elsewhere), not that its code ran;
 * the built server (esbuild, one bundle) has no such getters.
 */
function exportGetters(source: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (const [opening, closing] of [
    ['_export(exports, {', '\n});'],
    ['function _export_star(from, to) {', '\n}'],
  ] as const) {
    const start = source.indexOf(opening);
    const end = start === -1 ? -1 : source.indexOf(closing, start);
    if (end !== -1) ranges.push({ start, end });
  }
  return ranges;
}

/**
 * Run in the renderer before its code (`--import`, a `data:` module: it reads no file): precise
 * coverage from its start; on each line from the test on its channel, the functions of its entry
 * that ran since the last one, as one line of JSON (taking the coverage resets the counts).
 */
const RENDERER_PRELOAD = `
import { Session } from 'node:inspector/promises';
import { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const entry = pathToFileURL(process.argv[1]).href;
const channel = new Socket({ fd: ${String(COVERAGE_FD)}, readable: true, writable: true });
channel.unref();
channel.on('error', () => undefined);
channel.on('data', async () => {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const ran = result
    .filter((script) => script.url === entry)
    .map((script) => ({ url: script.url, functions: script.functions.filter((f) => f.ranges[0].count > 0) }));
  channel.write(JSON.stringify(ran) + '\\n');
});
`;

/**
 * The renderer started as the pool starts it (sandbox.ts), with the inspector allowed, the preload
 * above, and one more pipe: for this test only, so that nothing of the server changes for it.
 */
let renderer: { child: ChildProcess; channel: Socket } | null = null;
const realSpawn = childProcess.spawn;
function spawnWithCoverage(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const flag = args.indexOf(RENDERER_FLAG);
  if (flag === -1) return realSpawn(command, args, options);
  const preload = `data:text/javascript,${encodeURIComponent(RENDERER_PRELOAD)}`;
  const withFlags = [...args.slice(0, flag - 1), '--allow-inspector', '--import', preload, ...args.slice(flag - 1)];
  const stdio = [...(options.stdio as unknown[])];
  while (stdio.length < COVERAGE_FD) stdio.push('ignore');
  stdio[COVERAGE_FD] = 'pipe';
  const child = realSpawn(command, withFlags, { ...options, stdio: stdio as SpawnOptions['stdio'] });
  const channel = (child.stdio as unknown as (Socket | null)[])[COVERAGE_FD];
  if (channel === null || channel === undefined) throw new Error('no coverage channel');
  renderer = { child, channel };
  return child;
}

/** The renderer's functions that ran since the last call. */
function rendererCoverage(): Promise<ScriptCoverage[]> {
  const started = renderer;
  if (started === null) throw new Error('no renderer started');
  return new Promise((resolveRan, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.endsWith('\n')) return;
      started.channel.off('data', onData);
      try {
        resolveRan(JSON.parse(text) as ScriptCoverage[]);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    started.channel.on('data', onData);
    started.channel.write('take\n');
  });
}

/** A source file's path under server/src/, with forward slashes, or null for any other file. */
function serverModule(path: string): string | null {
  if (!path.startsWith(SOURCES + sep) || /\.test\.tsx?$/.test(path)) return null;
  return relative(SOURCES, path).split(sep).join('/');
}

/**
 * The server's modules that ran in this process (its scripts' URLs are the source files jest ran,
 * their text as jest compiled them read from the inspector).
 */
async function modulesHere(session: Session, coverage: ScriptCoverage[]): Promise<Ran> {
  const ran: Ran = { code: new Set(), read: new Set() };
  for (const script of coverage) {
    const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
    const module = serverModule(path);
    const counted = script.functions.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
    if (module === null || counted.length === 0 || script.scriptId === undefined) continue;
    const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId });
    const getters = exportGetters(scriptSource);
    const isGetter = (fn: FunctionCoverage) => {
      const at = fn.ranges[0]?.startOffset ?? -1;
      return getters.some((range) => at > range.start && at < range.end);
    };
    if (counted.every(isGetter)) ran.read.add(module);
    else ran.code.add(module);
  }
  return ran;
}

/** The server's modules that ran in the renderer: its bundle's functions, through the bundle's source map. */
function modulesInRenderer(coverage: ScriptCoverage[]): Set<string> {
  const ran = new Set<string>();
  for (const script of coverage) {
    const bundle = fileURLToPath(script.url);
    const text = readFileSync(bundle, 'utf8');
    const payload = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as SourceMapPayload;
    const map = new SourceMap(payload);
    // Absent from esbuild's maps, whatever Node's type says.
    const root = (payload as { sourceRoot?: string }).sourceRoot ?? '';
    const lineStarts = [0];
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
    for (const fn of script.functions) {
      const offset = fn.ranges[0]?.startOffset ?? 0;
      if ((fn.ranges[0]?.count ?? 0) === 0) continue;
      let low = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if ((lineStarts[middle] ?? 0) <= offset) low = middle;
        else high = middle - 1;
      }
      const entry = map.findEntry(low, offset - (lineStarts[low] ?? 0));
      if (!('originalSource' in entry)) continue;
      const module = serverModule(resolve(dirname(bundle), root, entry.originalSource));
      if (module !== null) ran.add(module);
    }
  }
  return ran;
}

const linesOf = (module: string): number => readFileSync(join(SOURCES, module), 'utf8').split('\n').length - 1;

/** The doc's generated block for what ran in each process. */
function block(server: Set<string>, rendererModules: Set<string>, readOnly: Set<string>): string {
  const rows = (modules: Set<string>) => [...modules].sort().map((module) => ({ module, lines: linesOf(module) }));
  const here = rows(server);
  const there = rows(rendererModules);
  const sum = (list: { lines: number }[]) => list.reduce((total, row) => total + row.lines, 0);
  const both = new Set([...server, ...rendererModules]);
  const table = (title: string, list: { module: string; lines: number }[]) => [
    `| ${title} | lines |`,
    '| --- | ---: |',
    ...list.map((row) => `| \`${row.module}\` | ${String(row.lines)} |`),
    `| ${String(list.length)} files | ${String(sum(list))} |`,
  ];
  return [
    START,
    '',
    `\`GET ${PAGE}\` and two other residences' pages, none in the cache, their part's containers already`,
    "loaded: the server's modules with code of their own that ran for each of them (a file that ran in",
    'both processes counts once in all).',
    '',
    `- the server's process: ${String(here.length)} files, ${String(sum(here))} lines;`,
    `- the renderer process: ${String(there.length)} files, ${String(sum(there))} lines;`,
    `- in all: ${String(both.size)} files, ${String(sum(rows(both)))} lines.`,
    '',
    ...table("the server's process", here),
    '',
    ...table('the renderer process', there),
    '',
    `Off the way, a value read and no code run (the server's process): ${
      readOnly.size === 0
        ? 'none.'
        : [...readOnly]
            .sort()
            .map((module) => `\`${module}\``)
            .join(', ') + '.'
    }`,
    '',
    END,
  ].join('\n');
}

describe('the page’s way in docs/rendering.md', () => {
  let app: FastifyInstance;
  const session = new Session();

  beforeAll(async () => {
    if (!existsSync(join(workspaceRoot, 'mf-radio', 'dist', 'server', 'remoteEntry.js')))
      throw new Error('the site is not built: npm run build');
    jest.spyOn(childProcess, 'spawn').mockImplementation(spawnWithCoverage);
    session.connect();
    await session.post('Profiler.enable');
    // The scripts' text as jest compiled them (modulesHere): the debugger knows each script parsed.
    await session.post('Debugger.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const site = readSiteServerConfig({ RENDERERS: '1', SITE_ORIGIN: 'https://radio.example.org' });
    app = await buildApp({ site, api: testConfig() });
    await app.ready();
  }, 60_000);

  afterAll(async () => {
    await app.close();
    await session.post('Profiler.stopPreciseCoverage');
    await session.post('Debugger.disable');
    session.disconnect();
    jest.restoreAllMocks();
  });

  it('names what one page ran, in the server and in its renderer', async () => {
    expect((await app.inject({ url: WARM_UP })).statusCode).toBe(200);
    // The programme's expansion for today, made once (in a worker) and kept: a render that passed its
    // data deadline may leave it running, to end during a measured page.
    expect((await app.inject({ url: '/api/schedule' })).statusCode).toBe(200);
    let here: Set<string> | null = null;
    let there: Set<string> | null = null;
    let touched: Set<string> | null = null;
    const both = (kept: Set<string> | null, ran: Set<string>) =>
      kept === null ? ran : new Set([...kept].filter((module) => ran.has(module)));
    for (const page of PAGES) {
      await session.post('Profiler.takePreciseCoverage');
      await rendererCoverage();
      const res = await app.inject({ url: page });
      const ran = await modulesHere(session, (await session.post('Profiler.takePreciseCoverage')).result);
      here = both(here, ran.code);
      touched = both(touched, new Set([...ran.code, ...ran.read]));
      there = both(there, modulesInRenderer(await rendererCoverage()));
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(page);
    }
    if (here === null || there === null || touched === null) throw new Error('aucune page mesurée');
    const code = here;
    const readOnly = new Set([...touched].filter((module) => !code.has(module)));
    expect(here).toContain('site/page-routes.ts');
    // Rendered by the renderer, not taken from the cache (it was never asked before).
    expect(there).toContain('site/render/renderer.ts');

    // Every file the doc's table gives for a step (its second column) ran.
    const section = readFileSync(DOC, 'utf8').split("## A page's way, file by file")[1]?.split(START)[0] ?? '';
    const named = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .flatMap((line) => [...(line.split('|')[2] ?? '').matchAll(/`([\w/.-]+\.ts)`/g)].map((found) => found[1]));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((file) => file === undefined || !(here.has(file) || there.has(file)))).toEqual([]);

    const generated = block(here, there, readOnly);
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect([start, end].every((at) => at !== -1)).toBe(true);
    const written = doc.slice(start, end + END.length);
    if (process.env.UPDATE_WAY === '1')
      writeFileSync(DOC, doc.slice(0, start) + generated + doc.slice(end + END.length));
    else expect(written).toBe(generated);
  }, 60_000);
});
