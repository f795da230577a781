import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync } from 'node:fs';
import { realPath } from '../../files/watched-file';
import { basename, dirname, join, parse, resolve } from 'node:path';
import { seccompFd } from './seccomp';

/**
 * The walls around a renderer (docs/rendering.md, « The sandbox »). A part's server code runs in a
 * process that the operating system keeps apart, with bubblewrap (`bwrap`, the sandbox Flatpak
 * uses):
 * - its own network namespace, with nothing but its loopback: no socket reaches the server, the
 *   host's services or the outside; its ways out are its two channels to its server (fd 3, fd 4);
 * - its own process namespace: it sees and signals no process outside (its server is not there);
 * - a file system of read-only binds: the Node binary and the system's libraries, its own code (one
 *   file), the `node_modules` folders above it, its own part's folder and the shell's and the player's
 *   live versions (nothing of another team's), and a private empty `/tmp`;
 * - an environment cleared, then the allow-list set (bwrap itself starts with that list only, so
 *   that `/proc/1/environ` inside holds no secret either);
 * - a user namespace of its own, as `nobody`, with every capability dropped (even when the server
 *   runs as root);
 * - a seccomp filter (seccomp.ts, `seccompFilter`): the system calls a container runtime's default profile
 *   refuses (Docker's: modules, keys, mounts, namespaces, tracing another process, BPF…) answer
 *   EPERM, on x86-64 and arm64;
 * - it dies with its server (`--die-with-parent`), in a session of its own (no terminal to write to).
 * Node's permission model stays on inside, as a second belt (`nodeFlags`).
 *
 * Where the host cannot make the walls (no user namespaces), `probeSandbox` says why: the server then
 * refuses to start when teams deploy, and otherwise runs renderers with the belt alone, and says so.
 */

/** How renderers run: behind bubblewrap's walls, or with Node's permission model alone. */
export type SandboxMode = 'bubblewrap' | 'permissions';

export interface SandboxProbe {
  mode: SandboxMode;
  /** Why the walls cannot be made here, in French, with how to allow them (permissions only). */
  why: string | null;
}

/** What a renderer may read, and run with. */
export interface SandboxOptions {
  /** What a renderer may read beyond its code: its own part's folder, the shell's and the player's live versions. */
  readable: readonly string[];
  heapMb: number;
  /** Its environment, already cut to RENDERER_ENV (the site's settings: `rendererEnv`). */
  env: Readonly<Record<string, string>>;
}

/** Every `node_modules` folder from `dir` up (where the renderer's npm packages are found). */
function packageFolders(dir: string): string[] {
  const found: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const folder = join(at, 'node_modules');
    if (existsSync(folder)) found.push(folder);
    if (at === parse(at).root) return found;
  }
}

/**
 * The modules the server was started with `--import` (the browser tests' clock, an admin's
 * preload), but its TypeScript loader: a renderer starts with them too, and may read them.
 */
export function preloads(execArgv: readonly string[] = process.execArgv): string[] {
  const found: string[] = [];
  execArgv.forEach((flag, index) => {
    const module = flag === '--import' ? execArgv[index + 1] : flag.startsWith('--import=') ? flag.slice(9) : undefined;
    if (module !== undefined && !/(^|\/)tsx(\.mjs)?$|^tsx\//.test(module)) found.push(resolve(module));
  });
  return found;
}

/**
 * What a renderer reads: its code (the one file, not the folder it is in, where the server's own files
 * are), the packages above it, its preloads, the parts' folders.
 */
function readablePaths(code: string, readable: readonly string[]): string[] {
  const paths = [code, ...packageFolders(dirname(code)), ...preloads(), ...readable];
  // A path and, when it is a link, where it leads: the permission model checks the path asked.
  return [...new Set(paths.flatMap((path) => [path, realPath(path)]))];
}

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const NODE_MINOR = Number(process.versions.node.split('.')[1]);

/** Node ≥ 22.14 has `--disable-sigusr1`: SIGUSR1 opens no inspector (on Node 20, the renderer's listener). */
export const DISABLE_SIGUSR1 = NODE_MAJOR > 22 || (NODE_MAJOR === 22 && NODE_MINOR >= 14) ? ['--disable-sigusr1'] : [];

/** Node's flags for a renderer: no inspector on SIGUSR1, the permission model, its preloads, its heap. */
export function nodeFlags(code: string, { readable, heapMb }: Omit<SandboxOptions, 'env'>): string[] {
  return [
    ...DISABLE_SIGUSR1,
    ...preloads().flatMap((module) => ['--import', module]),
    NODE_MAJOR >= 22 ? '--permission' : '--experimental-permission',
    ...readablePaths(code, readable).map((path) => `--allow-fs-read=${path}`),
    `--max-old-space-size=${String(heapMb)}`,
    // A young generation of 8 MB rather than V8's 32: measured on renderers, 25 MB less each, and
    // the same throughput.
    '--max-semi-space-size=4',
    // Its collector, which renderer.ts keeps from the parts' code, to give a resting renderer's
    // garbage back (docs/rendering.md, « Memory »).
    '--expose-gc',
    '--disable-warning=ExperimentalWarning',
  ];
}

/** The system's folders of shared libraries the Node binary is linked against (read-only, no secret). */
const LIBRARIES = ['/usr/lib', '/usr/lib64', '/lib', '/lib64'];

/**
 * What is bound for a path a renderer reads. A bind holds the folder it was made on, not its name:
 * a part's `dist/` replaced by a rename (a copy made beside it, then put in its place, as a hand
 * deploy does) would stay the old one inside. So a built folder is seen through its part's folder
 * (its sources and its build, nothing secret), whose `dist` name is looked up at each read. Node's
 * permission model still allows the `dist/` alone.
 */
function mountOf(path: string): string {
  return basename(path) === 'dist' ? dirname(path) : path;
}

/**
 * bubblewrap's arguments for a command: the namespaces, the binds, the environment, and, with
 * `seccomp`, the descriptor the child has the filter on (`seccompFd`).
 */
export function bwrapArgs(
  command: readonly string[],
  paths: readonly string[],
  env: Readonly<Record<string, string>>,
  { seccomp }: { seccomp?: number } = {},
) {
  const binds: string[] = [];
  for (const path of LIBRARIES) {
    if (!existsSync(path)) continue;
    const target = realPath(path);
    // /lib → usr/lib on a merged /usr: the link, as the host has it.
    if (target !== path) binds.push('--symlink', target, path);
    else binds.push('--ro-bind', path, path);
  }
  for (const path of new Set(paths.map(mountOf))) if (existsSync(path)) binds.push('--ro-bind', path, path);
  return [
    '--unshare-all',
    // A user namespace of its own, as nobody, with no capability: started by root (CI, a test), it
    // would otherwise keep root's capabilities inside.
    '--unshare-user',
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--cap-drop',
    'ALL',
    // No user namespace of its own inside (bubblewrap 0.8, Debian 12): a nested one would give its
    // code capabilities there, and the kernel's namespaced surface (docs/rendering.md, « The sandbox »).
    '--disable-userns',
    ...(seccomp === undefined ? [] : ['--seccomp', String(seccomp)]),
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    // The private /tmp first: a folder bound below it (a test's parts) stays visible.
    '--tmpfs',
    '/tmp',
    ...binds,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--chdir',
    '/tmp',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    '--',
    ...command,
  ];
}

/** The Node binary as it is on disk, and the folder that holds it (bound read-only). */
function nodeBinary(): string {
  return realPath(process.execPath);
}

/**
 * Starts a renderer's code in its sandbox, with its channels (docs/rendering.md, « The channel »):
 * fd 3 to fd 7, socket pairs that the server reads as HTTP, and its standard error (fd 2), read with
 * a bound. No Node IPC: Node parses that channel in its own internals, where a hostile peer's
 * bytes throw out of reach of any handler of the server's.
 */
export function spawnRenderer(
  mode: SandboxMode,
  code: string,
  args: readonly string[],
  options: SandboxOptions,
): ChildProcess {
  const flags = nodeFlags(code, options);
  // fd 2 (standard error), fd 3 (the render channel), fd 4 to fd 7 (the host channel's connections).
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'];
  if (mode === 'permissions') {
    return spawn(process.execPath, [...flags, code, ...args], { env: { ...options.env }, stdio });
  }
  const node = nodeBinary();
  const paths = [dirname(node), ...readablePaths(code, options.readable)];
  // The seccomp filter on fd 8, read by bwrap before it runs the code.
  const filter = seccompFd();
  try {
    // bubblewrap itself starts with the allow-list only.
    return spawn(
      'bwrap',
      bwrapArgs([node, ...flags, code, ...args], paths, options.env, filter === null ? {} : { seccomp: 8 }),
      { env: { ...options.env }, stdio: filter === null ? stdio : [...stdio, filter] },
    );
  } finally {
    if (filter !== null) closeSync(filter);
  }
}

let probed: SandboxProbe | undefined;

/**
 * Whether this host can make the walls: bubblewrap installed, and allowed to make namespaces (it
 * needs user namespaces; some hardened kernels and Ubuntu 24.04's AppArmor refuse them). Tried once,
 * with Node itself inside.
 */
export function probeSandbox(command = 'bwrap'): SandboxProbe {
  if (probed !== undefined && command === 'bwrap') return probed;
  const found = tryWalls(command);
  if (command === 'bwrap') probed = found;
  return found;
}

function tryWalls(command: string): SandboxProbe {
  const node = nodeBinary();
  // With the filter, as a renderer starts: a kernel that refuses it refuses the walls.
  const filter = seccompFd();
  const tried = (() => {
    try {
      return spawnSync(
        command,
        bwrapArgs([node, '-e', 'process.exit(0)'], [dirname(node)], {}, filter === null ? {} : { seccomp: 3 }),
        {
          env: {},
          encoding: 'utf8',
          timeout: 10_000,
          stdio: ['ignore', 'pipe', 'pipe', ...(filter === null ? [] : [filter])],
        },
      );
    } finally {
      if (filter !== null) closeSync(filter);
    }
  })();
  if (tried.error !== undefined) {
    const missing = (tried.error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      mode: 'permissions',
      why: missing
        ? 'bubblewrap (bwrap) n’est pas installé : « apt-get install bubblewrap » (Debian, Ubuntu)'
        : `bubblewrap ne démarre pas : ${tried.error.message}`,
    };
  }
  if (tried.status !== 0) {
    const said = tried.stderr.trim().split('\n').at(-1) ?? '';
    return {
      mode: 'permissions',
      why:
        `bubblewrap ne peut pas créer ses espaces de noms (${said}) : autorisez les espaces de noms ` +
        'utilisateur (sysctl kernel.unprivileged_userns_clone=1, ou sur Ubuntu 24.04 un profil AppArmor ' +
        'pour bwrap, ou kernel.apparmor_restrict_unprivileged_userns=0)',
    };
  }
  return { mode: 'bubblewrap', why: null };
}
