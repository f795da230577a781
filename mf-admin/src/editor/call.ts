import { XSRF_PATH, apiUrl, sendWithXsrf } from '@collectif/shared';

/*
 * The editor's requests to the site's /api (docs/content.md, « The editor »): the volunteer's own,
 * with the session cookie and the XSRF header (an XSRF cookie asked for first when the browser has
 * none: docs/api.md, « XSRF »), never cached and never put in the visitors' store.
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

const UNREACHABLE = 'Le site ne répond pas : vérifiez votre connexion, puis réessayez.';

/** One request; its JSON answer, or an EditorError with the site's words. */
export async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const request = new Request(apiUrl(path), {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  let response: Response;
  try {
    response = await sendWithXsrf(request, apiUrl(XSRF_PATH));
  } catch {
    throw new EditorError(0, 'network', UNREACHABLE, null);
  }
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const refusal = (data ?? {}) as { error?: unknown; message?: unknown };
    throw new EditorError(
      response.status,
      typeof refusal.error === 'string' ? refusal.error : 'error',
      typeof refusal.message === 'string'
        ? refusal.message
        : `Le site a refusé la demande (HTTP ${String(response.status)}).`,
      data,
    );
  }
  return data as T;
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
  const request = new Request(apiUrl(`/content/pictures?purpose=${purpose}`), {
    method: 'POST',
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { 'content-type': file.type === '' ? 'application/octet-stream' : file.type },
    // Its bytes, read first: any fetch sends them as they are.
    body: await bytesOf(file),
  });
  let response: Response;
  try {
    response = await sendWithXsrf(request, apiUrl(XSRF_PATH));
  } catch {
    throw new EditorError(0, 'network', UNREACHABLE, null);
  }
  const data = (await response.json().catch(() => null)) as {
    src?: unknown;
    error?: unknown;
    message?: unknown;
  } | null;
  if (!response.ok || typeof data?.src !== 'string') {
    throw new EditorError(
      response.status,
      typeof data?.error === 'string' ? data.error : 'error',
      typeof data?.message === 'string' ? data.message : `Le site a refusé l’image (HTTP ${String(response.status)}).`,
      data,
    );
  }
  return data.src;
}

/** What a message says of any failure: the site's words, or a plain French one. */
export const messageOf = (error: unknown): string =>
  error instanceof Error && error.message !== '' ? error.message : 'Une erreur est survenue : réessayez.';

/** The signed-in volunteer (GET /api/editor/me). */
export interface Me {
  name: string;
  role: 'admin' | 'residence' | 'label' | 'about';
  residence: string | null;
}

/** The roles in French, as the editor names them. */
export const ROLE_NAMES: Record<Me['role'], string> = {
  admin: 'administration',
  residence: 'résidence',
  label: 'équipe du label',
  about: 'équipe « À propos »',
};
