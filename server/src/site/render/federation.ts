import { builtinModules } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileFunction } from 'node:vm';
import { createInstance } from '@module-federation/runtime';
import React from 'react';
import jsxRuntime from 'react/jsx-runtime';
import ReactDOM from 'react-dom';
import * as shared from '@collectif/shared';
import * as sharedConfig from '@collectif/shared/config';
import * as sharedServer from '@collectif/shared/server';
import sharedPackage from '@collectif/shared/package.json';
import { PARTS, federationName, type PartName } from '@collectif/shared';

// The federation runtime of a renderer (docs/rendering.md, « Server containers »): a part's server
// container evaluated and loaded as the browser loads a remote, with the renderer's own React and
// shared package as the share scope's singletons.

/** The share scope a renderer offers every container: what a page's shell offers its remotes. */
const SHARED: Readonly<Record<string, { version: string; module: unknown }>> = {
  react: { version: React.version, module: React },
  'react/jsx-runtime': { version: React.version, module: jsxRuntime },
  'react-dom': { version: React.version, module: ReactDOM },
  '@collectif/shared': { version: sharedPackage.version, module: shared },
  '@collectif/shared/config': { version: sharedPackage.version, module: sharedConfig },
  '@collectif/shared/server': { version: sharedPackage.version, module: sharedServer },
};

const BUILTINS = new Set(builtinModules);

/**
 * A container's `require`: Node's builtins only (webpack's Node runtime may ask for them; in a
 * renderer, the permission model refuses what they would reach). Everything else is in the
 * container or in the share scope.
 */
function provide(request: string): unknown {
  const builtin = request.startsWith('node:') ? request.slice(5) : request;
  if (BUILTINS.has(builtin)) return process.getBuiltinModule(builtin);
  throw new Error(`module « ${request} » absent du serveur (un conteneur serveur porte ses dépendances)`);
}

/** A container's text, by the entry address the runtime is given for it, until the runtime asks. */
const texts = new Map<string, { code: string; filename: string }>();

/** The federation runtime of this renderer: one instance, each part's container registered in it. */
let federation: ReturnType<typeof createInstance> | undefined;
function runtime() {
  federation ??= createInstance({
    name: 'site_renderer',
    remotes: [],
    shared: Object.fromEntries(
      Object.entries(SHARED).map(([name, { version, module }]) => [
        name,
        { version, lib: () => module, shareConfig: { singleton: true, requiredVersion: false } },
      ]),
    ),
    plugins: [
      {
        name: 'site-renderer-entry',
        // The container's text is read by this file (from the part's folder or its origin, with its
        // version): evaluated here in this realm, with the builtins only as `require`.
        loadEntry({ remoteInfo }) {
          const found = texts.get(remoteInfo.entry);
          if (found === undefined) return undefined;
          texts.delete(remoteInfo.entry);
          const module = { exports: {} as Record<string, unknown> };
          const run = compileFunction(found.code, ['exports', 'require', 'module', '__filename', '__dirname'], {
            filename: found.filename,
          });
          run.call(module.exports, module.exports, provide, module, found.filename, dirname(found.filename));
          return module.exports as never;
        },
      },
    ],
  });
  return federation;
}

/** The runtime's remote handler, with the method that forgets a remote. */
interface RemoteHandler {
  removeRemote(remote: unknown): void;
}

let loads = 0;

/**
 * A part's server container loaded as the browser loads a remote: registered with the federation
 * runtime, initialised with the share scope, and each of its exposed modules got. What the
 * renderer reads of it: a remote's components and page definitions (`modules`, `definitions`), the
 * shell's `renderApp`.
 */
export async function loadContainer(code: string, filename: string, part: PartName): Promise<Record<string, unknown>> {
  const name = federationName(part);
  loads += 1;
  // A new address for each version: the runtime keeps what it loaded by address.
  const entry = `${/^https?:\/\//.test(filename) ? filename : pathToFileURL(filename).href}#${String(loads)}`;
  texts.set(entry, { code, filename });
  const mf = runtime();
  try {
    // The version before, forgotten by the runtime (its modules, its globals), then this one. What
    // `registerRemotes(…, { force: true })` does, without its warning at every redeploy (the method
    // is the runtime's own, typed private; the runtime's version is pinned, package.json).
    const before = mf.options.remotes.find((remote) => remote.name === name);
    if (before !== undefined) (mf.remoteHandler as unknown as RemoteHandler).removeRemote(before);
    mf.registerRemotes([{ name, entry }]);
    if (part === 'shell') return (await mf.loadRemote<Record<string, unknown>>(`${name}/server`)) ?? {};
    const exposed = PARTS.find((each) => each.name === part)?.exposes ?? [];
    const modules: Record<string, unknown> = {};
    const definitions: Record<string, unknown> = {};
    for (const module of exposed) {
      const loaded = await mf.loadRemote<{ default?: unknown; page?: unknown }>(`${name}/${module}`);
      if (loaded?.default !== undefined) modules[module] = loaded.default;
      if (loaded?.page !== undefined) definitions[module] = loaded.page;
    }
    return { modules, definitions };
  } finally {
    texts.delete(entry);
  }
}
