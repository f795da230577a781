import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, parse, resolve } from 'node:path';

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
 * - a seccomp filter (`seccompFilter`): the system calls a container runtime's default profile
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

/** A path's real place (the permission model checks the path asked; bwrap binds the real one). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
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
  return [...new Set(paths.flatMap((path) => [path, real(path)]))];
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

// The system calls a renderer never needs and that widen the kernel's surface, from Docker's default
// seccomp profile (moby's profiles/seccomp/default.json: those it leaves out of its allow-list
// without a capability): loading kernel modules, keys, mounts and the new mount API, namespaces
// (unshare, setns; clone with a CLONE_NEW* flag), tracing or reading another process, BPF,
// perf events, the clock, swap, reboot, NUMA policies, userfaultfd, io_uring. Numbers from the
// kernel's tables (asm/unistd_64.h for x86-64, asm-generic/unistd.h for arm64).
const DENIED: Record<string, { x64: number; arm64?: number }> = {
  acct: { x64: 163, arm64: 89 },
  add_key: { x64: 248, arm64: 217 },
  bpf: { x64: 321, arm64: 280 },
  clock_adjtime: { x64: 305, arm64: 266 },
  clock_settime: { x64: 227, arm64: 112 },
  create_module: { x64: 174 },
  delete_module: { x64: 176, arm64: 106 },
  finit_module: { x64: 313, arm64: 273 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fsopen: { x64: 430, arm64: 430 },
  fspick: { x64: 433, arm64: 433 },
  get_kernel_syms: { x64: 177 },
  get_mempolicy: { x64: 239, arm64: 236 },
  init_module: { x64: 175, arm64: 105 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  io_uring_setup: { x64: 425, arm64: 425 },
  ioperm: { x64: 173 },
  iopl: { x64: 172 },
  kcmp: { x64: 312, arm64: 272 },
  kexec_file_load: { x64: 320, arm64: 294 },
  kexec_load: { x64: 246, arm64: 104 },
  keyctl: { x64: 250, arm64: 219 },
  lookup_dcookie: { x64: 212, arm64: 18 },
  mbind: { x64: 237, arm64: 235 },
  mount: { x64: 165, arm64: 40 },
  mount_setattr: { x64: 442, arm64: 442 },
  move_mount: { x64: 429, arm64: 429 },
  move_pages: { x64: 279, arm64: 239 },
  name_to_handle_at: { x64: 303, arm64: 264 },
  nfsservctl: { x64: 180, arm64: 42 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  open_tree: { x64: 428, arm64: 428 },
  perf_event_open: { x64: 298, arm64: 241 },
  pivot_root: { x64: 155, arm64: 41 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  ptrace: { x64: 101, arm64: 117 },
  query_module: { x64: 178 },
  quotactl: { x64: 179, arm64: 60 },
  reboot: { x64: 169, arm64: 142 },
  request_key: { x64: 249, arm64: 218 },
  set_mempolicy: { x64: 238, arm64: 237 },
  setns: { x64: 308, arm64: 268 },
  settimeofday: { x64: 164, arm64: 170 },
  swapoff: { x64: 168, arm64: 225 },
  swapon: { x64: 167, arm64: 224 },
  syslog: { x64: 103, arm64: 116 },
  sysfs: { x64: 139 },
  _sysctl: { x64: 156 },
  umount2: { x64: 166, arm64: 39 },
  unshare: { x64: 272, arm64: 97 },
  uselib: { x64: 134 },
  userfaultfd: { x64: 323, arm64: 282 },
  ustat: { x64: 136 },
  vhangup: { x64: 153, arm64: 58 },
};
/** clone (its flags checked) and clone3 (ENOSYS: its flags are behind a pointer; glibc then uses clone). */
const CLONE = { x64: { clone: 56, clone3: 435 }, arm64: { clone: 220, clone3: 435 } };
/** CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET. */
const CLONE_NAMESPACES = 0x7e020000;
/** The kernel's audit architectures (linux/audit.h). */
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 };
const EPERM = 1;
const ENOSYS = 38;

/**
 * The renderers' seccomp filter as the classic BPF program `bwrap --seccomp` loads (an array of
 * `struct sock_filter`: code u16, jt u8, jf u8, k u32, little-endian): another architecture than
 * this one is killed, x32's calls and `DENIED` answer EPERM, clone with a namespace flag EPERM,
 * clone3 ENOSYS, every other call is allowed. Null on an architecture the table lacks (the other
 * walls still stand; docs/rendering.md, « The sandbox »).
 */
export function seccompFilter(arch: string = process.arch): Buffer | null {
  if (arch !== 'x64' && arch !== 'arm64') return null;
  const LD_ABS = 0x20;
  const JEQ = 0x15;
  const JGE = 0x35;
  const JSET = 0x45;
  const RET = 0x06;
  const ALLOW = 0x7fff0000;
  const KILL_PROCESS = 0x80000000;
  const errno = (code: number) => 0x00050000 | code;
  type Step = { code: number; k: number; yes?: string; no?: string } | { label: string };
  const steps: Step[] = [
    // seccomp_data: nr at 0, arch at 4, args[0]'s low half at 16.
    { code: LD_ABS, k: 4 },
    { code: JEQ, k: AUDIT_ARCH[arch], no: 'kill' },
    { code: LD_ABS, k: 0 },
    ...(arch === 'x64' ? [{ code: JGE, k: 0x40000000, yes: 'deny' }] : []),
    ...Object.values(DENIED).flatMap((numbers) =>
      numbers[arch] === undefined ? [] : [{ code: JEQ, k: numbers[arch], yes: 'deny' }],
    ),
    { code: JEQ, k: CLONE[arch].clone3, yes: 'nosys' },
    { code: JEQ, k: CLONE[arch].clone, no: 'allow' },
    { code: LD_ABS, k: 16 },
    { code: JSET, k: CLONE_NAMESPACES, yes: 'deny', no: 'allow' },
    { label: 'allow' },
    { code: RET, k: ALLOW },
    { label: 'deny' },
    { code: RET, k: errno(EPERM) },
    { label: 'nosys' },
    { code: RET, k: errno(ENOSYS) },
    { label: 'kill' },
    { code: RET, k: KILL_PROCESS },
  ];
  const at = new Map<string, number>();
  let count = 0;
  for (const step of steps) {
    if ('label' in step) at.set(step.label, count);
    else count += 1;
  }
  const program = Buffer.alloc(count * 8);
  let index = 0;
  for (const step of steps) {
    if ('label' in step) continue;
    // A jump counts the instructions it skips after itself.
    const offset = (label: string | undefined) => (label === undefined ? 0 : (at.get(label) ?? 0) - index - 1);
    program.writeUInt16LE(step.code, index * 8);
    program.writeUInt8(offset(step.yes), index * 8 + 2);
    program.writeUInt8(offset(step.no), index * 8 + 3);
    program.writeUInt32LE(step.k >>> 0, index * 8 + 4);
    index += 1;
  }
  return program;
}

/**
 * The filter in a file opened for reading, for `--seccomp FD` (bwrap reads it to its end): written
 * in a private folder and unlinked at once, so that only the descriptor holds it. Null without a
 * filter for this architecture. The caller closes it once the child has it.
 */
export function seccompFd(): number | null {
  const filter = seccompFilter();
  if (filter === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'seccomp-'));
  try {
    const file = join(dir, 'filtre.bpf');
    writeFileSync(file, filter, { mode: 0o400 });
    return openSync(file, 'r');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
    const target = real(path);
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
  return real(process.execPath);
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
