// The package registry reachable from our machines serves only the platform packages of the
// machines themselves (linux x64): npm then writes a lock file that lacks other platforms' optional
// binaries (@swc/core-darwin-arm64, …), and `npm ci` refuses it as out of sync. This adds a lock
// entry for each missing optional platform package, with its os/cpu/libc, so that npm ci skips it
// on a machine it does not fit, as it would with a complete lock file. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './parts.mjs';

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 'riscv64', 's390x', 'loong64', 'wasm32', 'mips64el'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  if (cpu === undefined) return null;
  const entry = { cpu: [cpu] };
  if (os !== undefined) entry.os = [os];
  if (tokens.includes('gnu') || tokens.includes('gnueabihf')) entry.libc = ['glibc'];
  if (tokens.includes('musl') || tokens.includes('musleabihf')) entry.libc = ['musl'];
  return entry;
}

const file = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
let added = 0;
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const prefix = path === '' ? '' : `${path}/`;
    const nested = `${prefix}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] !== undefined || lock.packages[hoisted] !== undefined) continue;
    const platform = platformOf(name);
    if (platform === null) continue;
    lock.packages[hoisted] = { version: version.replace(/^[\^~=]/, ''), optional: true, ...platform };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json : ${String(added)} paquet(s) de plateforme ajouté(s)`);
