import type { ClientCredentialsConfig } from '../env';
import { UpstreamError } from '../../http/errors';
import { ensureOk, fetchUpstream, jsonBody, type UpstreamLimits } from '../../upstream/fetch';
import { ClientCredentialsToken, readTokenResponse, withToken } from '../../upstream/token';

/** Live when Helix lists a stream of type 'live' for the channel; an empty `data` is offline. */
export function isLiveAnswer(body: unknown): boolean {
  const data = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).data : undefined;
  if (!Array.isArray(data)) throw new UpstreamError('twitch', 'invalid', 'champ data manquant');
  return data.some(
    (stream) => typeof stream === 'object' && stream !== null && (stream as { type?: unknown }).type === 'live',
  );
}

/** The channel's live status from Twitch Helix, with an app access token. */
export function twitchLiveStatus(
  config: ClientCredentialsConfig & { channel: string },
  limits: UpstreamLimits,
  now: () => number = Date.now,
): () => Promise<boolean> {
  const tokens = new ClientCredentialsToken(
    async () =>
      readTokenResponse(
        'twitch',
        await fetchUpstream(
          'twitch',
          {
            url: config.authUrl,
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              client_id: config.clientId,
              client_secret: config.clientSecret,
              grant_type: 'client_credentials',
            }).toString(),
          },
          limits,
        ),
      ),
    now,
  );
  const url = `${config.apiUrl}/streams?user_login=${encodeURIComponent(config.channel)}`;
  return async () => {
    const response = await withToken(tokens, (token) =>
      fetchUpstream(
        'twitch',
        { url, headers: { Authorization: `Bearer ${token}`, 'Client-Id': config.clientId } },
        limits,
      ),
    );
    if (response.status === 401) throw new UpstreamError('twitch', 'auth', 'jeton refusé deux fois', 401);
    return isLiveAnswer(jsonBody('twitch', ensureOk('twitch', response)));
  };
}
