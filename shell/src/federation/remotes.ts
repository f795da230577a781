import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import {
  federationName,
  REMOTE_NAMES,
  REMOTES_CONFIG_ID,
  type PageDefinition,
  type RemoteModuleRef,
  type RemoteName,
  type RemotesConfig,
} from '@collectif/shared';

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

export function parseRemotesConfig(data: unknown): RemotesConfig {
  if (typeof data !== 'object' || data === null) throw new Error('Configuration des modules : objet attendu');
  const record = data as Record<string, unknown>;
  const result = {} as RemotesConfig;
  for (const name of REMOTE_NAMES) {
    const entry = record[name];
    if (typeof entry !== 'string' || entry.length === 0) {
      throw new Error(`Configuration des modules : « ${name} » doit être l'URL de son mf-manifest.json`);
    }
    result[name] = entry;
  }
  return result;
}

export function registerFromConfig(remotes: RemotesConfig): void {
  config = remotes;
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
