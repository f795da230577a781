import type { ClientCredentialsConfig } from '../env';
import { UpstreamError } from '../../http/errors';
import { ensureOk, fetchUpstream, jsonBody, type UpstreamLimits } from '../../upstream/fetch';
import { ClientCredentialsToken, readTokenResponse, withToken } from '../../upstream/token';

/** A SoundCloud track URN, the only shape /api/track accepts (the URL path is built from it). */
export const TRACK_URN = /^soundcloud:tracks:\d{1,20}$/;

/** Progressive mp3 first (plain <audio> plays it); then HLS, AAC before mp3 (SoundCloud drops mp3). */
const STREAM_PREFERENCE = ['http_mp3_128_url', 'hls_aac_160_url', 'hls_aac_96_url', 'hls_mp3_128_url'] as const;

/** The playable URL of a `/tracks/{urn}/streams` answer. */
export function pickStreamUrl(body: unknown): string {
  const streams = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  for (const key of STREAM_PREFERENCE) {
    const candidate = streams[key];
    if (typeof candidate === 'string' && /^https?:\/\//.test(candidate)) return candidate;
  }
  throw new UpstreamError('soundcloud', 'invalid', 'aucun flux lisible pour cette piste');
}

/** Resolves track URNs to stream URLs with an app token (OAuth 2.1 client credentials). */
export function soundcloudStreams(
  config: ClientCredentialsConfig,
  limits: UpstreamLimits,
  now: () => number = Date.now,
): (urn: string) => Promise<string> {
  const tokens = new ClientCredentialsToken(
    async () =>
      readTokenResponse(
        'soundcloud',
        await fetchUpstream(
          'soundcloud',
          {
            url: config.authUrl,
            method: 'POST',
            headers: {
              Authorization: `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`,
              'Content-Type': 'application/x-www-form-urlencoded',
              Accept: 'application/json; charset=utf-8',
            },
            body: 'grant_type=client_credentials',
          },
          limits,
        ),
      ),
    now,
  );
  return async (urn) => {
    if (!TRACK_URN.test(urn)) throw new UpstreamError('soundcloud', 'invalid', 'identifiant de piste invalide');
    const url = `${config.apiUrl}/tracks/${encodeURIComponent(urn)}/streams`;
    const response = await withToken(tokens, (token) =>
      fetchUpstream(
        'soundcloud',
        { url, headers: { Authorization: `OAuth ${token}`, Accept: 'application/json' } },
        limits,
      ),
    );
    if (response.status === 404) throw new UpstreamError('soundcloud', 'not_found', 'piste inconnue', 404);
    if (response.status === 401) throw new UpstreamError('soundcloud', 'auth', 'jeton refusé deux fois', 401);
    return pickStreamUrl(jsonBody('soundcloud', ensureOk('soundcloud', response)));
  };
}
