import * as v from 'valibot';
import {
  PARTS,
  type PageMatch,
  type PagePreload,
  type PageRef,
  type PartName,
  type RemotesConfig,
} from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import type { PageHead } from '@collectif/shared/seo';

/**
 * What crosses between the server and a renderer (docs/rendering.md, « The channel »), and the
 * tasks the server gives. Socket pairs, each HTTP/1.1 one way: on the render channel (fd 3 in
 * the renderer) the server asks, with undici, and the renderer answers each task; on the host
 * channel (fd 4 to fd 7, `HOST_CONNECTIONS`) the renderer asks the server for the page's /api and files and tells what it
 * reads. A renderer runs a part's code, so every byte it sends is input: HTTP parsed by llhttp
 * (undici and node:http), each body bounded, then checked here by one schema. Anything else ends
 * that renderer, never the server.
 */

/** What any task renders with: the site's settings, its table of pages, where the parts are. */
export interface RenderSettings {
  origin: string;
  radio: RadioSettings;
  pages: readonly PageRef[];
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  dataDeadlineMs: number;
  renderDeadlineMs: number;
}

/**
 * Which versions of the parts' server containers a task may evaluate (permits.ts):
 * a snapshot, taken when the task leaves for its renderer, so that a renderer keeps no state of its
 * own between tasks but the containers it has loaded.
 */
export interface VersionsSnapshot {
  /** Server containers whose loading never ended, as `part@version`: not loaded again. */
  disabled: readonly string[];
  /**
   * The versions that may be evaluated (`part@version`): tried, or there when the server started
   * (docs/deploy.md, « The trial »); null: any (no renderer process). A part whose container is in
   * another version renders in the browser.
   */
  allowed: readonly string[] | null;
}

/** A page to render. */
export interface RenderTask extends RenderSettings, VersionsSnapshot {
  pathname: string;
  search: string;
  match: PageMatch | null;
}

/**
 * A part's new server container tried before it is used (docs/deploy.md, « The trial »), in a
 * renderer of its own that serves no visitor: loaded, then each of its pages rendered once with the
 * other parts' containers in use, from the page table it would make.
 */
export interface TrialTask extends RenderSettings {
  trial: { part: PartName; dir: string };
  /** The site's page table with the new version's pages in place of the part's. */
  pages: readonly PageRef[];
}

/**
 * Sent to a lane's first renderer, and to the fresh ones of a recycled lane, before any page: the
 * lane takes pages once a renderer has answered it (its code loaded), so that no page's deadline
 * counts a renderer's start.
 */
export interface WarmUp {
  warmUp: true;
}

export type RendererTask = RenderTask | TrialTask | WarmUp;

/** What a task calls on the server that gave it (over the host channel, or in this process). */
export interface RenderHost {
  /** The page's /api request (a GET with no credentials), answered by the server. */
  api(url: string): Promise<HostAnswer>;
  /**
   * A part's file on another origin (its server container: the remote map names where), fetched by
   * the server: a renderer has no network.
   */
  file(url: string, etag: string | null): Promise<HostAnswer>;
  log(level: 'warn' | 'debug', message: string): void;
  /**
   * A part's server container is about to be evaluated: if the task is abandoned now, that version is
   * at fault. Its promise (a renderer's) settles once the server has it, before the evaluation.
   */
  reading(part: PartName, version: string, where: string): unknown;
  read(part: PartName, version: string, where: string, problem: string | null): void;
}

/** What a page's render answers (checked by `readOutcome` when it comes from a renderer). */
export type RenderOutcome =
  | {
      kind: 'page';
      status: number;
      head: PageHead;
      preloads: readonly PagePreload[];
      body: string;
      /**
       * The store's state for the browser, as JSON safe inside a script element: made here, so that a
       * renderer sends one string to its server rather than an object to copy.
       */
      state: string;
      /** The router's hydration data, the same way. */
      router: string;
    }
  /** A path no page has: the site sends it home (docs/site.md, « Routes and titles »). */
  | { kind: 'redirect'; location: string }
  /** A path whose parameters cannot be decoded. */
  | { kind: 'invalid' }
  /** No server rendering for this request (the shell's server container is missing or failed): the browser renders. */
  | { kind: 'browser'; reason: string };

/** An /api answer or a part's file fetched for a renderer, as it crosses processes. */
export interface HostAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The longest address a renderer may ask for, and the longest text it may log. */
export const MAX_URL = 4096;
export const MAX_TEXT = 2000;
/** The largest page a renderer may hand back (body, state and router data together). */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;
/** The most /api requests (and files fetched) one task may make. */
export const MAX_REQUESTS_PER_TASK = 64;
/** The largest answer a renderer may give a task on the render channel (a page's JSON, escaped). */
export const MAX_ANSWER_BYTES = 2 * MAX_PAGE_BYTES + 64 * 1024;
/** The largest message a renderer may send on the host channel (a request's headers, or its body). */
export const MAX_MESSAGE_BYTES = 16 * 1024;
/**
 * The host channel's connections (fd 4 to fd 7): a page's /api requests go out side by side, as its
 * store asks them, one at a time on each.
 */
export const HOST_CONNECTIONS = 4;
/**
 * The most messages a renderer may send on the host channel in one second (a page rendered makes
 * a few: a renderer at 100 pages a second, some 500), and at once (one on each connection).
 */
export const MAX_MESSAGES_PER_SECOND = 2000;
export const MAX_MESSAGES_AT_ONCE = HOST_CONNECTIONS;
/** The most a renderer may write to its standard error in its life (its last line is kept for the log). */
export const MAX_STDERR_BYTES = 1024 * 1024;

const part = v.picklist(PARTS.map((each) => each.name) as [PartName, ...PartName[]]);
/** A text it says: cut to MAX_TEXT rather than refused (a long error message stays readable). */
const said = v.pipe(
  v.string(),
  v.transform((text) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text)),
);
const short = v.pipe(v.string(), v.maxLength(MAX_URL));

/** The task a host message belongs to: the token of the render channel's request. */
const task = v.pipe(v.string(), v.regex(/^[0-9a-f-]{36}$/));

/** What a renderer may send on the host channel: one JSON body a request, one of these. */
export const hostMessageSchema = v.variant('type', [
  v.object({ type: v.literal('ready') }),
  v.object({ type: v.literal('log'), task, level: v.picklist(['warn', 'debug']), message: said }),
  v.object({ type: v.literal('reading'), task, part, version: short, where: short }),
  v.object({ type: v.literal('read'), task, part, version: short, where: short, problem: v.nullable(said) }),
  v.object({ type: v.literal('api'), task, url: short }),
  v.object({ type: v.literal('file'), task, url: short, etag: v.nullable(short) }),
]);

/** What a renderer sends the server on the host channel, once checked. */
export type HostMessage = v.InferOutput<typeof hostMessageSchema>;

/** A host message's body, parsed and checked; null for anything else (which ends that renderer). */
export function readMessage(body: string): HostMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return null;
  }
  const parsed = v.safeParse(hostMessageSchema, message);
  return parsed.success ? parsed.output : null;
}

/** What a renderer answers a task on the render channel: its value, or why it failed. */
const taskAnswerSchema = v.variant('ok', [
  v.object({ ok: v.literal(true), value: v.unknown() }),
  v.object({ ok: v.literal(false), message: said }),
]);

/** A task's answer as its renderer sent it (the body of the render channel's response), checked. */
export function readTaskAnswer(body: string): v.InferOutput<typeof taskAnswerSchema> {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    throw new AnswerRefused('réponse du rendu illisible (pas du JSON)');
  }
  const parsed = v.safeParse(taskAnswerSchema, answer);
  if (!parsed.success) throw new AnswerRefused(`réponse du rendu invalide (${parsed.issues[0].message})`);
  return parsed.output;
}

const text = v.string();
const headSchema = v.object({
  title: text,
  description: text,
  canonical: text,
  image: v.optional(
    v.object({
      url: text,
      alt: text,
      width: v.optional(v.number()),
      height: v.optional(v.number()),
    }),
  ),
  ogType: v.optional(text),
  audio: v.optional(text),
  jsonLd: v.optional(v.array(v.looseObject({}))),
  alternates: v.optional(v.array(v.object({ type: text, href: text, title: text }))),
  noindex: v.optional(v.boolean()),
});

const preloadSchema = v.object({
  href: text,
  imagesrcset: v.optional(text),
  imagesizes: v.optional(text),
  fetchpriority: v.optional(v.literal('high')),
});

const outcomeSchema = v.variant('kind', [
  v.object({
    kind: v.literal('page'),
    status: v.pipe(v.number(), v.integer(), v.minValue(200), v.maxValue(599)),
    head: headSchema,
    preloads: v.pipe(v.array(preloadSchema), v.maxLength(16)),
    body: text,
    state: text,
    router: text,
  }),
  v.object({ kind: v.literal('redirect'), location: short }),
  v.object({ kind: v.literal('invalid') }),
  v.object({ kind: v.literal('browser'), reason: said }),
]);

const trialSchema = v.variant('ok', [
  v.object({ ok: v.literal(true), version: short, pages: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
  v.object({ ok: v.literal(false), reason: said }),
]);

/** What a trial found: the version of the container tried (as `watchedFile` names it), or why it is refused. */
export type TrialOutcome = v.InferOutput<typeof trialSchema>;

/** Why a renderer's answer was refused (said in the server's log and the page's reason). */
export class AnswerRefused extends Error {}

/**
 * A page's outcome as a renderer answered it: checked field by field, bounded in size, and a redirect
 * kept on the site's own origin (a renderer cannot send a visitor elsewhere).
 */
export function readOutcome(value: unknown, origin: string): RenderOutcome {
  const parsed = v.safeParse(outcomeSchema, value);
  if (!parsed.success) throw new AnswerRefused(`réponse du rendu invalide (${parsed.issues[0].message})`);
  const outcome = parsed.output;
  if (outcome.kind === 'page') {
    const bytes = outcome.body.length + outcome.state.length + outcome.router.length;
    if (bytes > MAX_PAGE_BYTES) throw new AnswerRefused(`page rendue trop grande (${String(bytes)} caractères)`);
  }
  if (outcome.kind === 'redirect') {
    const target = new URL(outcome.location, origin);
    if (
      target.origin !== new URL(origin).origin ||
      !outcome.location.startsWith('/') ||
      outcome.location.startsWith('//') ||
      // `/\host` is `//host` to a browser; a space or a control character is no path of the site.
      /[\\\s]/.test(outcome.location) ||
      Array.from(outcome.location).some((char) => char.charCodeAt(0) < 0x20)
    )
      throw new AnswerRefused(`redirection hors du site refusée (${outcome.location.slice(0, 200)})`);
  }
  return outcome;
}

/** A trial's outcome as its renderer answered it, checked. */
export function readTrialOutcome(value: unknown): TrialOutcome {
  const parsed = v.safeParse(trialSchema, value);
  if (!parsed.success) throw new AnswerRefused(`réponse de l’essai invalide (${parsed.issues[0].message})`);
  return parsed.output;
}
