import * as v from 'valibot';
import { PARTS, type PagePreload, type PartName } from '@collectif/shared';
import type { PageHead } from '@collectif/shared/seo';
import type { RendererTask } from './tasks';

/**
 * What crosses a renderer's IPC channel (docs/rendering.md, « What a renderer may say »). The server
 * writes what it sends; a renderer runs a part's code, so everything it sends is input: each message
 * is checked here by one schema, and anything else is dropped.
 */

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
       * worker sends one string to the main thread rather than an object to copy.
       */
      state: string;
      /** The router's hydration data, the same way. */
      router: string;
    }
  /** A path no page has: the site sends it home (docs/site.md, « Routes and titles »). */
  | { kind: 'redirect'; location: string }
  /** A path whose parameters cannot be decoded. */
  | { kind: 'invalid' }
  /** No server rendering for this request (the shell's bundle is missing or failed): the browser renders. */
  | { kind: 'browser'; reason: string };

/** An /api answer or a part's file fetched for a renderer, as it crosses processes. */
export interface HostAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What the server sends a renderer. */
export type ToRenderer =
  { type: 'task'; id: number; task: RendererTask } | { type: 'answer'; request: number; answer: HostAnswer };

/** The longest address a renderer may ask for, and the longest text it may log. */
export const MAX_URL = 4096;
export const MAX_TEXT = 2000;
/** The largest page a renderer may hand back (body, state and router data together). */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;
/** The most /api requests (and files fetched) one task may make. */
export const MAX_REQUESTS_PER_TASK = 64;

const id = v.pipe(v.number(), v.integer(), v.minValue(0));
const part = v.picklist(PARTS.map((each) => each.name) as [PartName, ...PartName[]]);
/** A text it says: cut to MAX_TEXT rather than refused (a long error message stays readable). */
const said = v.pipe(
  v.string(),
  v.transform((text) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text)),
);
const short = v.pipe(v.string(), v.maxLength(MAX_URL));

export const fromRendererSchema = v.variant('type', [
  v.object({ type: v.literal('ready') }),
  v.object({ type: v.literal('started'), id }),
  v.object({ type: v.literal('log'), id, level: v.picklist(['warn', 'debug']), message: said }),
  v.object({ type: v.literal('reading'), id, part, version: short, where: short }),
  v.object({ type: v.literal('read'), id, part, version: short, where: short, problem: v.nullable(said) }),
  v.object({ type: v.literal('api'), id, request: id, url: short }),
  v.object({ type: v.literal('file'), id, request: id, url: short, etag: v.nullable(short) }),
  v.object({ type: v.literal('done'), id, value: v.unknown() }),
  v.object({ type: v.literal('failed'), id, message: said }),
]);

/** What a renderer sends the server, once checked. */
export type FromRenderer = v.InferOutput<typeof fromRendererSchema>;

/** A message from a renderer, checked; null for anything else. */
export function readMessage(message: unknown): FromRenderer | null {
  const parsed = v.safeParse(fromRendererSchema, message);
  return parsed.success ? parsed.output : null;
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
