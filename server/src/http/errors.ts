import type { ApiError } from '@collectif/shared';

/** The upstream services, as a visitor would name them in an error message (subject, « de … »). */
export const SERVICE_LABELS = {
  feed: { subject: 'Le flux des émissions', of: 'du flux des émissions' },
  soundcloud: { subject: 'SoundCloud', of: 'de SoundCloud' },
  twitch: { subject: 'Twitch', of: 'de Twitch' },
  azuracast: { subject: 'Le serveur de la radio', of: 'du serveur de la radio' },
  schedule: { subject: 'L’agenda de la radio', of: 'de l’agenda de la radio' },
  events: { subject: 'L’agenda des évènements', of: 'de l’agenda des évènements' },
  helloasso: { subject: 'HelloAsso', of: 'de HelloAsso' },
} as const;

export type Service = keyof typeof SERVICE_LABELS;

export type UpstreamFailure = 'timeout' | 'unreachable' | 'status' | 'too_large' | 'invalid' | 'auth' | 'not_found';

/** The `code` of each of our error classes: the error handler (plugins/errors.ts) maps by it. */
export const ERROR_CODES = { api: 'API_HTTP_ERROR', upstream: 'UPSTREAM_ERROR' } as const;

/** Why an upstream call failed; mapped to one HTTP answer by `upstreamErrorReply`. */
export class UpstreamError extends Error {
  readonly code = ERROR_CODES.upstream;

  constructor(
    readonly service: Service,
    readonly failure: UpstreamFailure,
    readonly detail = '',
    readonly status?: number,
  ) {
    super(`${service}: ${failure}${detail === '' ? '' : ` (${detail})`}`);
    this.name = 'UpstreamError';
  }
}

/** An error the API answers on purpose, with its status and JSON body (`apiCode`: the body's `error`). */
export class ApiHttpError extends Error {
  readonly code = ERROR_CODES.api;

  constructor(
    readonly statusCode: number,
    readonly apiCode: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiHttpError';
  }

  body(): ApiError {
    return { error: this.apiCode, message: this.message };
  }
}

/** The HTTP answer for an upstream failure: 504 on timeout, 503 when unreachable, else 502. */
export function upstreamErrorReply(error: UpstreamError): ApiHttpError {
  const { subject: label, of } = SERVICE_LABELS[error.service];
  switch (error.failure) {
    case 'timeout':
      return new ApiHttpError(504, 'upstream_timeout', `${label} n’a pas répondu à temps. Réessayez dans un instant.`);
    case 'unreachable':
      return new ApiHttpError(503, 'upstream_unavailable', `${label} est injoignable pour le moment.`);
    case 'too_large':
      return new ApiHttpError(502, 'upstream_too_large', `La réponse ${of} dépasse la taille autorisée.`);
    case 'invalid':
      return new ApiHttpError(502, 'upstream_invalid', `La réponse ${of} est illisible (${error.detail}).`);
    case 'auth':
      return new ApiHttpError(502, 'upstream_auth', `${label} a refusé les identifiants du serveur.`);
    case 'not_found':
      return new ApiHttpError(404, 'track_not_found', `${label} ne connaît pas cette piste.`);
    case 'status':
      return new ApiHttpError(502, 'upstream_error', `${label} a répondu par une erreur (HTTP ${error.status ?? 0}).`);
  }
}

/** Anything thrown while talking to an upstream becomes an UpstreamError; nothing escapes raw. */
export function asUpstreamError(service: Service, error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  return new UpstreamError(service, 'invalid', error instanceof Error ? error.message : String(error));
}
