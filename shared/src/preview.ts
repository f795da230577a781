import { api, type AppDispatch, type RootState } from '@collectif/shared';
import { findResidence } from './addresses/paths';
import * as v from 'valibot';
import { residenceSummary, residencesAnswer } from './schemas/residences';
import { webOrigin } from './editor-config';

/*
 * The editor's preview of a public page (docs/content.md, « Preview »): the editor shows the public
 * page itself in a frame and hands it the content as visitors would get it once saved
 * (the site's `POST /api/content/…/preview`); the page's shell puts that content in the frame's own
 * store in place of the served one, and the page's own code renders it. Nothing is saved, and no
 * other window's store changes.
 *
 * The conversation, by `postMessage` between the editor and its frame: the editor on its own origin
 * (EDITOR_ORIGIN, the page's frame on the public one), or on the site's (the editor served as a
 * part of the public site, as before):
 * 1. the frame's shell, once the page is interactive, says `PREVIEW_READY` to its parent, addressed
 *    to each origin an editor may have (`previewParentOrigins`: the browser drops it for any other);
 * 2. the editor answers `PREVIEW_CONTENT` with the kind and its content, addressed to the public
 *    origin exactly;
 * 3. the shell puts it in the store and says on the page that it is a preview.
 * A page the visitor opens in a frame of another site hears nothing: messages are taken only from
 * the parent window, and only of the site's own origin or the editor's.
 */

export const PREVIEW_READY = 'collectif:apercu-pret';
export const PREVIEW_CONTENT = 'collectif:apercu';

/**
 * `<script type="application/json" id="preview-config">`, which the server writes into every public
 * page when the editor has an origin of its own: `{ "editorOrigin": "https://edition.example.org" }`.
 * Without it (or with `"editorOrigin": null`), a page takes previews from its own origin only.
 */
export const PREVIEW_CONFIG_ID = 'preview-config';

export const previewConfigSchema = v.object({ editorOrigin: v.nullable(webOrigin) });

export type PreviewConfig = v.InferOutput<typeof previewConfigSchema>;

/**
 * The origins a page's preview may come from: its own, and the editor's when the server wrote one
 * (`PREVIEW_CONFIG_ID`). One that cannot be read is left out, said once in the console: the page
 * then hears its own origin alone, as it did before the editor had one.
 */
export function previewParentOrigins(doc: Document, ownOrigin: string): string[] {
  const text = doc.getElementById(PREVIEW_CONFIG_ID)?.textContent ?? '';
  if (text === '') return [ownOrigin];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const read = v.safeParse(previewConfigSchema, data);
  if (!read.success) {
    console.warn(`Réglages de l’aperçu illisibles (#${PREVIEW_CONFIG_ID}) : aperçu depuis ce site seulement`);
    return [ownOrigin];
  }
  const editor = read.output.editorOrigin;
  return editor === null || editor === ownOrigin ? [ownOrigin] : [ownOrigin, editor];
}

/** The kinds of content a page shows, and the query each is read by (docs/content.md, « Read by the pages »). */
export const PREVIEW_QUERIES = {
  residences: 'residences',
  slides: 'slides',
  team: 'team',
  about: 'aboutTexts',
  releases: 'releases',
} as const;

export type PreviewKind = keyof typeof PREVIEW_QUERIES;

export interface PreviewContent {
  type: typeof PREVIEW_CONTENT;
  kind: PreviewKind;
  /** The content as the preview route gave it (checked and made safe by the site). */
  data: unknown;
}

export const isPreviewKind = (kind: unknown): kind is PreviewKind =>
  typeof kind === 'string' && Object.hasOwn(PREVIEW_QUERIES, kind);

/** A message of the editor's, read: its kind and content, or null for anything else. */
export function readPreviewMessage(data: unknown): PreviewContent | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.type !== PREVIEW_CONTENT || !isPreviewKind(message.kind) || !('data' in message)) return null;
  return { type: PREVIEW_CONTENT, kind: message.kind, data: message.data };
}

/**
 * Puts a preview's content in a store, in place of the served one: every cached use of its query
 * (the releases are asked for with several limits: each gets its first ones), and the query the
 * page would ask next.
 */
export async function applyPreview(
  { dispatch, getState }: { dispatch: AppDispatch; getState: () => RootState },
  { kind, data }: Pick<PreviewContent, 'kind' | 'data'>,
): Promise<void> {
  if (kind === 'releases') {
    const list = Array.isArray(data) ? (data as never[]) : [];
    const uses = api.util.selectCachedArgsForQuery(getState(), 'releases');
    await Promise.all(
      (uses.length === 0 ? [{}] : uses).map((args) =>
        dispatch(api.util.upsertQueryData('releases', args, list.slice(0, args.limit ?? list.length))),
      ),
    );
    return;
  }
  if (kind === 'residences') {
    // Read with the served list's schema first (content of another shape leaves the store as it
    // was), then given to every query that reads residences: the whole list, its summaries, and
    // each residence a page asked for by its id.
    const read = v.safeParse(residencesAnswer, data);
    if (!read.success) return;
    const list = read.output;
    const ids = api.util.selectCachedArgsForQuery(getState(), 'residence');
    await Promise.all([
      dispatch(api.util.upsertQueryData('residences', undefined, list)),
      dispatch(api.util.upsertQueryData('residenceSummaries', undefined, list.map(residenceSummary))),
      ...ids.map((id) => dispatch(api.util.upsertQueryData('residence', id, findResidence(id, list) ?? null))),
    ]);
    return;
  }
  const query = PREVIEW_QUERIES[kind];
  await dispatch(api.util.upsertQueryData(query, undefined, data as never));
}
