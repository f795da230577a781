import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_ARCH, CLONE, CLONE_NAMESPACES, DENIED, ENOSYS, EPERM } from './seccomp-table';

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
