import {
  loadRemote,
  registerPlugins,
  registerRemotes,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import {
  federationName,
  REMOTE_NAMES,
  readRemotesMap,
  REMOTES_CONFIG_ID,
  type PageDefinition,
  type RemoteModuleRef,
  type RemoteName,
  type RemotesConfig,
} from '@collectif/shared';
import { yieldToMain } from '../boot/yield';

const REMOTES_URL = '/remotes.json';
const ATTEMPTS = 3;
const BASE_DELAY_MS = 300;

let config: RemotesConfig | null = null;

/**
 * The remote map: the site server writes it into the page (`<script type="application/json"
 * id="remotes-config">`), which saves a request before anything else can load; a shell served some
 * other way (e.g. its dev server) fetches /remotes.json.
 */
export async function readRemotesConfig(doc: Document = document): Promise<RemotesConfig> {
  const inline = doc.getElementById(REMOTES_CONFIG_ID);
  if (inline?.textContent == null || inline.textContent === '') return fetchRemotesConfig();
  let data: unknown;
  try {
    data = JSON.parse(inline.textContent);
  } catch {
    throw new Error(`Configuration des modules illisible (#${REMOTES_CONFIG_ID})`);
  }
  return parseRemotesConfig(data);
}

/** Reads the runtime remote configuration; a missing or broken document is a clear error. */
export async function fetchRemotesConfig(url = REMOTES_URL): Promise<RemotesConfig> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Configuration des modules illisible (${url} : ${String(response.status)})`);
  const data: unknown = await response.json();
  return parseRemotesConfig(data);
}

/** The remote map, checked by the schema the server writes it with (`remotesConfigSchema`). */
export function parseRemotesConfig(data: unknown): RemotesConfig {
  try {
    return readRemotesMap(data);
  } catch (error) {
    throw new Error(`Configuration des modules : ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/**
 * Gives the main thread back between a remote's entry arriving and its container's start (its share
 * scope joined, its module asked for): the federation runtime ran both in the entry's `load` event,
 * 18 to 27 ms of one task after the paint for the page's part on a developer's machine
 * (docs/first-screen.md, « Work after the paint »).
 */
export const taskPerStep: ModuleFederationRuntimePlugin = {
  name: 'collectif-une-tache-par-etape',
  async beforeInitContainer(args) {
    await yieldToMain();
    return args;
  },
};

let pluginsRegistered = false;

export function registerFromConfig(remotes: RemotesConfig): void {
  config = remotes;
  if (!pluginsRegistered) {
    registerPlugins([taskPerStep]);
    pluginsRegistered = true;
  }
  registerRemotes(REMOTE_NAMES.map((name) => ({ name: federationName(name), entry: remotes[name] })));
}

/** Forgets a remote that failed, so that the next load fetches its manifest and entry again. */
export function resetRemote(name: RemoteName): void {
  if (config === null) return;
  registerRemotes([{ name: federationName(name), entry: config[name] }], { force: true });
}

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** An exposed module: its component, and for a page its definition (data and head). */
export interface LoadedModule {
  default: ComponentType;
  page?: PageDefinition;
}

/**
 * Loads an exposed module, retrying network failures with backoff. Throws when the remote stays
 * unreachable; the caller's error boundary shows the fallback.
 */
export async function loadRemoteModule({ remote, module }: RemoteModuleRef): Promise<LoadedModule> {
  let lastError: unknown = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (attempt > 0) {
      resetRemote(remote);
      await wait(BASE_DELAY_MS * 2 ** (attempt - 1));
    }
    try {
      const loaded = await loadRemote<{ default?: ComponentType; page?: PageDefinition }>(
        `${federationName(remote)}/${module}`,
      );
      if (loaded?.default !== undefined) {
        return loaded.page === undefined ? { default: loaded.default } : { default: loaded.default, page: loaded.page };
      }
      lastError = new Error(`Le module ${remote}/${module} est vide`);
    } catch (error) {
      lastError = error;
    }
  }
  resetRemote(remote);
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
