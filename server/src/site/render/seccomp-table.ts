// The renderers' seccomp table (docs/rendering.md, « The sandbox »): data only, read by seccomp.ts.

// The system calls a renderer never needs and that widen the kernel's surface, from Docker's default
// seccomp profile (moby's profiles/seccomp/default.json: those it leaves out of its allow-list
// without a capability): loading kernel modules, keys, mounts and the new mount API, namespaces
// (unshare, setns; clone with a CLONE_NEW* flag), tracing or reading another process, BPF,
// perf events, the clock, swap, reboot, NUMA policies, userfaultfd, io_uring. Numbers from the
// kernel's tables (asm/unistd_64.h for x86-64, asm-generic/unistd.h for arm64).
export const DENIED: Record<string, { x64: number; arm64?: number }> = {
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
export const CLONE = { x64: { clone: 56, clone3: 435 }, arm64: { clone: 220, clone3: 435 } };
/** CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET. */
export const CLONE_NAMESPACES = 0x7e020000;
/** The kernel's audit architectures (linux/audit.h). */
export const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 };
export const EPERM = 1;
export const ENOSYS = 38;
