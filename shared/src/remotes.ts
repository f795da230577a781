import type { ComponentType } from 'react';
import * as v from 'valibot';
import type { PARTS } from '../parts.mjs';
import { REMOTE_PARTS, federationName as containerName } from '../parts.mjs';

export { PARTS, REMOTE_PARTS, urlPrefix } from '../parts.mjs';

/** A page a remote exposes: a component that takes no props (the route's parameters come from the router). */
export type PageComponent = ComponentType;

type RemotePart = (typeof REMOTE_PARTS)[number];

/** A remote's name in the registry of parts (shared/parts.mjs). */
export type RemoteName = RemotePart['name'];

/**
 * What each remote exposes, its whole public API, from the registry of parts (docs/parts.md): every
 * exposed module's default export is a component. The remote checks its modules against these types
 * with `satisfies`; the shell loads them through the same types.
 */
export type RemoteContract = {
  [P in RemotePart as P['name']]: { [M in P['exposes'][number]]: PageComponent };
};

/** A part's name, the shell's included. */
export type PartName = (typeof PARTS)[number]['name'];

export const REMOTE_NAMES: readonly RemoteName[] = REMOTE_PARTS.map((part) => part.name);

/** The module an exposed name resolves to: its default export is the component. */
export type ExposedModule<R extends RemoteName, M extends keyof RemoteContract[R]> = {
  default: RemoteContract[R][M];
};

/** `<script type="application/json" id="remotes-config">`: the remote map, written into every page. */
export const REMOTES_CONFIG_ID = 'remotes-config';

/** Runtime remote configuration served as JSON: remote name to manifest URL. */
export type RemotesConfig = Record<RemoteName, string>;

/** A remote's manifest: an address of the site (`/mf-radio/mf-manifest.json`) or an http(s) one. */
export const manifestUrlSchema = v.pipe(v.string(), v.regex(/^(https?:\/\/|\/)\S+$/));

/**
 * The remote map, one manifest per remote: written once for the server (REMOTES_CONFIG, which may
 * name some of them, `v.partial`) and the shell (the map the page carries, which names all).
 */
export const remotesConfigSchema = v.strictObject(
  Object.fromEntries(REMOTE_PARTS.map((part) => [part.name, manifestUrlSchema])) as Record<
    RemoteName,
    typeof manifestUrlSchema
  >,
);

/**
 * The remote map `data` names, checked (`partial`: only some remotes); throws the first problem in
 * French, naming the remote.
 */
export function readRemotesMap(data: unknown, partial: true): Partial<RemotesConfig>;
export function readRemotesMap(data: unknown, partial?: false): RemotesConfig;
export function readRemotesMap(data: unknown, partial = false): Partial<RemotesConfig> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error('objet attendu : { "player": URL, ... }');
  }
  const result = v.safeParse(partial ? v.partial(remotesConfigSchema) : remotesConfigSchema, data);
  if (result.success) return result.output;
  const [issue] = result.issues;
  const key: unknown = issue.path?.[0]?.key;
  const name = typeof key === 'string' ? key : '';
  if (issue.type === 'strict_object' && issue.input !== undefined) {
    throw new Error(`remote inconnu « ${name} » (attendus : ${REMOTE_NAMES.join(', ')})`);
  }
  throw new Error(`« ${name} » doit être l'URL de son mf-manifest.json (/… ou https://…)`);
}

/** The federation name of each part's container (the shell's too: its server container, docs/rendering.md). */
export const federationName = (part: PartName): string => containerName(part);
