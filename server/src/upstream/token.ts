import { UpstreamError, type Service } from '../http/errors';
import { jsonBody, type UpstreamResponse } from './fetch';

export interface AccessToken {
  accessToken: string;
  expiresInS: number;
}

/** Reads an OAuth token answer (`access_token`, `expires_in`); a refusal is an auth failure. */
export function readTokenResponse(service: Service, response: UpstreamResponse): AccessToken {
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    throw new UpstreamError(service, 'auth', `jeton refusé (HTTP ${String(response.status)})`, response.status);
  }
  if (response.status < 200 || response.status >= 300) {
    throw new UpstreamError(service, 'status', `jeton : HTTP ${String(response.status)}`, response.status);
  }
  const body = jsonBody(service, response);
  const token = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const accessToken = token.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new UpstreamError(service, 'invalid', 'access_token manquant');
  }
  const expiresIn = Number(token.expires_in);
  return { accessToken, expiresInS: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600 };
}

/**
 * An app access token (OAuth client credentials), kept until shortly before it expires: the
 * services limit how many tokens an app may ask for. Concurrent callers share one token request.
 */
export class ClientCredentialsToken {
  private token: { value: string; renewAt: number } | undefined;
  private inflight: Promise<string> | undefined;

  constructor(
    private readonly request: () => Promise<AccessToken>,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<string> {
    if (this.token !== undefined && this.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.inflight ??= this.request()
      .then(({ accessToken, expiresInS }) => {
        // Renewed a minute early (or at 90 % of a short life) so a request never carries a dead token.
        const margin = Math.min(60, expiresInS * 0.1) * 1000;
        this.token = { value: accessToken, renewAt: this.now() + expiresInS * 1000 - margin };
        return accessToken;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }

  /** Forgets a token the service refused, unless a newer one already replaced it. */
  invalidate(value: string): void {
    if (this.token?.value === value) this.token = undefined;
  }
}

/** Calls with the current token; on a 401 (token expired or revoked) gets a new one once and retries. */
export async function withToken(
  tokens: ClientCredentialsToken,
  call: (token: string) => Promise<UpstreamResponse>,
): Promise<UpstreamResponse> {
  const token = await tokens.get();
  const response = await call(token);
  if (response.status !== 401) return response;
  tokens.invalidate(token);
  return call(await tokens.get());
}
