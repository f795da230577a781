import * as v from 'valibot';
import { readPageTable, type PageRef } from '@collectif/shared';
import { scriptJson } from './seo/head';

/*
 * The editor app's configuration (docs/content.md, « The editor app »): the volunteers' editor has an
 * origin of its own (EDITOR_ORIGIN), where the server writes its document as it writes every page,
 * from the list of files mf-admin's build makes (`mf-admin/dist/editor/document.json`). That document
 * runs under a strict CSP (no inline script or style), so what the editor needs to know of the site
 * is data, never code: the server writes it as `<script type="application/json" id="editor-config">`
 * (`editorConfigJson`), and the editor reads it with `textContent` (never executed) and checks it
 * with the schema below.
 *
 * The server and the editor are deployed apart: the editor takes the fields it knows and ignores any
 * other, so a server that adds one breaks no editor already deployed.
 */

/** The id of the element the server writes into the editor's document. */
export const EDITOR_CONFIG_ID = 'editor-config';

/** A web origin as the browser writes it: `https://host[:port]`, nothing after (no path, no slash). */
export const webOrigin = v.pipe(
  v.string('une origine est attendue, par exemple https://www.example.org'),
  v.check((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'origine invalide (attendu : https://hôte, sans chemin ni « / » final)'),
);

/** One page of the site's table, as the server writes it into the public pages (`pages-config`). */
const pageRef = v.pipe(
  v.unknown(),
  v.check((entry) => readPageTable([entry]).length === 1, 'page invalide (chemin, module, titre ou zone)'),
);

export const editorConfigSchema = v.object(
  {
    /**
     * The public site's origin (`https://www.example.org`): the preview frames its pages, and the
     * editor links to them and shows their pictures from there.
     */
    publicOrigin: webOrigin,
    /** The site's page table, as in every public page: the addresses of the pages the editor shows or links. */
    pages: v.pipe(
      v.array(pageRef, 'une liste de pages est attendue'),
      v.transform((pages) => readPageTable(pages)),
    ),
  },
  // A field missing (its path named), or no object at all.
  (issue) => ((issue.path?.length ?? 0) > 0 ? 'champ manquant' : 'un objet JSON est attendu'),
);

export interface EditorConfig {
  publicOrigin: string;
  pages: PageRef[];
}

export type EditorConfigRead = { ok: true; config: EditorConfig } | { ok: false; error: string };

const WHAT = `La configuration de l’éditeur (#${EDITOR_CONFIG_ID})`;
const ADVICE = 'rechargez la page ; si cela continue, prévenez l’équipe du site.';

/** Where an issue is, as a JSON pointer (`/pages/2`), or '' for the whole value. */
const pointerOf = (issue: v.BaseIssue<unknown>): string =>
  (issue.path ?? []).map((item) => `/${String(item.key as string | number)}`).join('');

/** The configuration in a JSON text, checked; or the French line that says what is wrong. */
export function parseEditorConfig(text: string): EditorConfigRead {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: `${WHAT} est illisible (pas du JSON) : ${ADVICE}` };
  }
  const result = v.safeParse(editorConfigSchema, data);
  if (result.success) return { ok: true, config: result.output };
  const [issue] = result.issues;
  const where = pointerOf(issue);
  return {
    ok: false,
    error: `${WHAT} est invalide${where === '' ? '' : `, champ ${where}`} : ${issue.message} ; ${ADVICE}`,
  };
}

/** The configuration the server wrote into `doc`, checked; or the French line to show instead of the editor. */
export function readEditorConfig(doc: Document): EditorConfigRead {
  const element = doc.getElementById(EDITOR_CONFIG_ID);
  if (element === null || element.tagName !== 'SCRIPT' || element.getAttribute('type') !== 'application/json') {
    return { ok: false, error: `${WHAT} manque à cette page : ${ADVICE}` };
  }
  return parseEditorConfig(element.textContent);
}

/**
 * The configuration as the server writes it into the editor's document (the `#editor-config`
 * element's text): checked first (a wrong one throws, naming the field), as JSON that cannot end the
 * element (`scriptJson`).
 */
export function editorConfigJson(config: EditorConfig): string {
  const read = parseEditorConfig(JSON.stringify(config));
  if (!read.ok) throw new Error(read.error);
  return scriptJson(config);
}
