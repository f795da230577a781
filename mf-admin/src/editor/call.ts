import { callApi } from '@collectif/shared/call';

/*
 * The editor's requests to the site's /api (docs/content.md, « The editor »): the volunteer's own,
 * with the session cookie and the XSRF header (an XSRF cookie asked for first when the browser has
 * none: docs/api.md, « XSRF »), never cached and never put in the visitors' store; sent as every
 * write of the site's own client outside the API slice (`@collectif/shared/call`).
 */

/** A refusal of the site, with its French message (and, for some, what it sent with it). */
export class EditorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** One request; its JSON answer, or an EditorError with the site's words. */
export async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const answer = await callApi(method, path, body);
  if (!answer.ok) throw new EditorError(answer.status, answer.code, answer.message, answer.data);
  return answer.data as T;
}

/** What a picture's use is (docs/content.md, « Pictures »): the widths the site makes of it. */
export type PicturePurpose = 'portrait' | 'header' | 'team' | 'cover' | 'slide';

/** A file's bytes (FileReader: in every browser, and in the DOM the tests run in). */
function bytesOf(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      resolve(reader.result as ArrayBuffer);
    };
    reader.onerror = () => {
      reject(new EditorError(0, 'file', 'Ce fichier n’a pas pu être lu : choisissez-le à nouveau.', null));
    };
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Sends a picture as it is (the site reads its type from its bytes, re-encodes it and strips its
 * metadata); the address of its largest width, which the content then names.
 */
export async function uploadPicture(purpose: PicturePurpose, file: Blob): Promise<string> {
  // Its bytes, read first: any fetch sends them as they are.
  const answer = await callApi('POST', `/content/pictures?purpose=${purpose}`, await bytesOf(file), {
    type: file.type === '' ? 'application/octet-stream' : file.type,
  });
  const src = answer.ok ? (answer.data as { src?: unknown } | null)?.src : undefined;
  if (typeof src === 'string') return src;
  throw answer.ok
    ? new EditorError(answer.status, 'error', `Le site a refusé l’image (HTTP ${String(answer.status)}).`, answer.data)
    : new EditorError(answer.status, answer.code, answer.message, answer.data);
}

/** What a message says of any failure: the site's words, or a plain French one. */
export const messageOf = (error: unknown): string =>
  error instanceof Error && error.message !== '' ? error.message : 'Une erreur est survenue : réessayez.';

/** The signed-in volunteer (GET /api/editor/me). */
export interface Me {
  name: string;
  role: 'admin' | 'residence' | 'label' | 'about' | 'programmation';
  residence: string | null;
}

/** The roles in French, as the editor names them. */
export const ROLE_NAMES: Record<Me['role'], string> = {
  admin: 'administration',
  residence: 'résidence',
  label: 'équipe du label',
  about: 'équipe « À propos »',
  programmation: 'équipe de programmation',
};
