import { readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { compileFunction } from 'node:vm';
import React from 'react';
import jsxRuntime from 'react/jsx-runtime';
import ReactDOM from 'react-dom';
import * as shared from '@collectif/shared';
import * as sharedConfig from '@collectif/shared/config';
import * as sharedServer from '@collectif/shared/server';
import { PARTS, urlPrefix, type PartName, type RemotesConfig } from '@collectif/shared';

/**
 * The parts' server bundles (docs/rendering.md, « Server bundles »): `dist/server/ssr.js` of each
 * part, read where the remote map says the part lives, evaluated with this server's own React and
 * shared package (one copy of each, as in the browser), and read again when it changes, so that a
 * part redeployed alone renders on the next request, with no restart.
 *
 * A bundle is not loaded through Node's module system: Node never forgets a module it has loaded,
 * while an old bundle here is dropped once replaced. A part whose bundle is missing, fails to load
 * or cannot be fetched in time renders in the browser instead.
 */

/** Where a part's server bundle sits in its dist/ (shared/build/webpack.mjs). */
export const SERVER_BUNDLE = 'server/ssr.js';

/** What a server bundle may take from this server instead of carrying it (shared/build/webpack.mjs). */
const PROVIDED: Readonly<Record<string, unknown>> = {
  react: React,
  'react/jsx-runtime': jsxRuntime,
  'react-dom': ReactDOM,
  '@collectif/shared': shared,
  '@collectif/shared/config': sharedConfig,
  '@collectif/shared/server': sharedServer,
};

const BUILTINS = new Set(builtinModules);

function provide(request: string): unknown {
  if (Object.hasOwn(PROVIDED, request)) return PROVIDED[request];
  const builtin = request.startsWith('node:') ? request.slice(5) : request;
  if (BUILTINS.has(builtin)) return process.getBuiltinModule(builtin);
  throw new Error(`module « ${request} » absent du serveur (un bundle serveur porte ses dépendances)`);
}

/** Runs a CommonJS bundle in this realm (same React, same globals) and returns its exports. */
export function evaluateBundle(code: string, filename: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const run = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  run.call(module.exports, module.exports, provide, module, filename, dirname(filename));
  return module.exports;
}

export interface BundleSource {
  /** A name for the log. */
  label: string;
  /** Where it is: a file of this server, or a URL. */
  file?: string;
  url?: string;
}

interface Loaded {
  /** What identifies this version: the file's size and time, or the HTTP validator. */
  version: string;
  exports: Record<string, unknown> | null;
  checkedAt: number;
}

export interface BundlesOptions {
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  /** How long a fetch of a bundle on another origin may take. */
  fetchTimeoutMs?: number;
  /** How often a bundle on another origin is revalidated. */
  refreshMs?: number;
  warn?: (message: string) => void;
}

/** Where each part's server bundle is, from the remote map: this server's files, or beside a manifest elsewhere. */
export function bundleSource(
  name: PartName,
  remotes: RemotesConfig,
  distDirs: Record<PartName, string>,
): BundleSource | null {
  const part = PARTS.find((p) => p.name === name);
  if (part === undefined) return null;
  if (name === 'shell') return { label: name, file: join(distDirs.shell, SERVER_BUNDLE) };
  const url = remotes[name];
  const local = `${urlPrefix(part)}mf-manifest.json`;
  if (url === local) return { label: name, file: join(distDirs[name], SERVER_BUNDLE) };
  if (/^https?:\/\//.test(url)) return { label: name, url: new URL(SERVER_BUNDLE, url).href };
  return null;
}

export function createBundles({
  remotes,
  distDirs,
  fetchTimeoutMs = 2000,
  refreshMs = 30_000,
  warn = () => undefined,
}: BundlesOptions) {
  const loaded = new Map<PartName, Loaded>();
  const fetching = new Map<PartName, Promise<void>>();

  function evaluate(name: PartName, version: string, code: string, filename: string): Loaded {
    let exports: Record<string, unknown> | null = null;
    try {
      exports = evaluateBundle(code, filename);
    } catch (error) {
      warn(`Bundle serveur de « ${name} » inutilisable, rendu dans le navigateur : ${String(error)}`);
    }
    const entry = { version, exports, checkedAt: Date.now() };
    loaded.set(name, entry);
    return entry;
  }

  function fromFile(name: PartName, file: string): Record<string, unknown> | null {
    let version: string;
    try {
      const stats = statSync(file);
      version = `${String(stats.size)}-${String(stats.mtimeMs)}-${String(stats.ino)}`;
    } catch {
      loaded.delete(name);
      return null;
    }
    const cached = loaded.get(name);
    if (cached?.version === version) return cached.exports;
    let code: string;
    try {
      code = readFileSync(file, 'utf8');
    } catch {
      return null;
    }
    return evaluate(name, version, code, file).exports;
  }

  async function refresh(name: PartName, url: string): Promise<void> {
    const cached = loaded.get(name);
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(fetchTimeoutMs),
        headers: cached === undefined ? {} : { 'if-none-match': cached.version },
      });
      if (response.status === 304 && cached !== undefined) {
        cached.checkedAt = Date.now();
        return;
      }
      if (!response.ok) throw new Error(`${url} : ${String(response.status)}`);
      const code = await response.text();
      evaluate(name, response.headers.get('etag') ?? `${String(code.length)}-${String(Date.now())}`, code, url);
    } catch (error) {
      warn(`Bundle serveur de « ${name} » injoignable (${url}) : ${String(error)}`);
      if (cached !== undefined) cached.checkedAt = Date.now();
      else loaded.set(name, { version: '', exports: null, checkedAt: Date.now() });
    }
  }

  /** A bundle on another origin: the last one fetched, revalidated in the background once stale. */
  async function fromUrl(name: PartName, url: string): Promise<Record<string, unknown> | null> {
    const cached = loaded.get(name);
    const stale = cached === undefined || Date.now() - cached.checkedAt > refreshMs;
    if (stale && !fetching.has(name)) {
      const pending = refresh(name, url).finally(() => fetching.delete(name));
      fetching.set(name, pending);
    }
    // The first request waits for the fetch (bounded by its timeout); later ones never do.
    if (cached === undefined) await fetching.get(name);
    return loaded.get(name)?.exports ?? null;
  }

  return {
    /** The exports of a part's server bundle, or null when it renders in the browser. */
    async get(name: PartName): Promise<Record<string, unknown> | null> {
      const source = bundleSource(name, remotes, distDirs);
      if (source === null) return null;
      if (source.file !== undefined) return fromFile(name, source.file);
      return source.url === undefined ? null : fromUrl(name, source.url);
    },
    /** Changes whenever any bundle in use changes (the rendered pages' cache key). */
    versions(): string {
      return [...loaded.entries()].map(([name, entry]) => `${name}:${entry.version}`).join('|');
    },
  };
}

export type Bundles = ReturnType<typeof createBundles>;
