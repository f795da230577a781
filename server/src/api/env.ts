import { join } from 'node:path';
import type { RadioSettings } from '@collectif/shared/config';
import { ConfigError, workspaceRoot, type Env } from '../config';
import { readRadioSettings } from '../radio';

/** Where an OAuth client-credentials service lives and who we are to it. */
export interface ClientCredentialsConfig {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  authUrl: string;
}

/** Everything the /api plugin needs; read once at start-up by `readApiConfig`. */
export interface ApiConfig {
  /** SoundCloud user feed; null: the embedded demo feed. */
  rss: { url: string; maxPages: number } | null;
  /** SoundCloud API for track streams; null: only demo tracks resolve. */
  soundcloud: ClientCredentialsConfig | null;
  /** Twitch Helix for the live status; null: the demo live switch. */
  twitch: (ClientCredentialsConfig & { channel: string }) | null;
  /** The radio's run-time settings (stream, chat, Twitch channel), answered at GET /api/radio. */
  radio: RadioSettings;
  /** AzuraCast now-playing URL; null: the demo rotation. */
  azuracast: { url: string } | null;
  /** The collective's calendars (SCHEDULE_ICS_URLS, their ICS addresses); null: the demo's. */
  schedule: { urls: string[] } | null;
  ttlMs: { feed: number; live: number; nowPlaying: number; track: number; schedule: number };
  upstream: { timeoutMs: number; maxBytes: number };
  demo: {
    /** Live status at start-up (DEMO_LIVE); the admin route switches it. */
    live: boolean;
    rotationMs: number;
    /** Folder of the generated demo audio (live.mp3, replays/*.mp3). */
    audioDir: string;
    /** Run the generator at start-up when the demo audio is missing. */
    generateAudio: boolean;
    residencesFile: string;
  };
  /** Bearer token of POST /api/admin/live; null: the route does not exist. */
  adminToken: string | null;
  limits: {
    trackPerMinute: number;
    ssePerMinute: number;
    sseConnectionsPerClient: number;
    liveListeners: number;
  };
  releasesFile: string;
  ssePingMs: number;
}

export const SERVER_DIR = join(workspaceRoot, 'server');

const DEFAULTS = {
  soundcloudApiUrl: 'https://api.soundcloud.com',
  soundcloudAuthUrl: 'https://secure.soundcloud.com/oauth/token',
  twitchApiUrl: 'https://api.twitch.tv/helix',
  twitchAuthUrl: 'https://id.twitch.tv/oauth2/token',
} as const;

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function url(env: Env, name: string, fallback?: string): string | undefined {
  const raw = value(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `URL invalide « ${raw} »`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError(name, `URL http(s) attendue, reçu « ${raw} »`);
  }
  return raw.replace(/\/$/, '');
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!/^\d+$/.test(raw) || parsed < min || parsed > max) {
    throw new ConfigError(name, `entier entre ${min} et ${max} attendu, reçu « ${raw} »`);
  }
  return parsed;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'oui', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'non', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `booléen attendu (true ou false), reçu « ${raw} »`);
}

/** Both halves of a credential pair, or neither (the service then runs in demo mode). */
function credentials(env: Env, idName: string, secretName: string): { clientId: string; clientSecret: string } | null {
  const clientId = value(env, idName);
  const clientSecret = value(env, secretName);
  if (clientId === undefined && clientSecret === undefined) return null;
  if (clientId === undefined) throw new ConfigError(idName, `manquant alors que ${secretName} est défini`);
  if (clientSecret === undefined) throw new ConfigError(secretName, `manquant alors que ${idName} est défini`);
  return { clientId, clientSecret };
}

/**
 * Reads and checks the /api configuration from the environment (see the README table). A wrong
 * value throws ConfigError naming the variable; an upstream left unset runs on the embedded demo.
 */
export function readApiConfig(env: Env, radio: RadioSettings = readRadioSettings(env)): ApiConfig {
  const rssUrl = url(env, 'SOUNDCLOUD_RSS_URL');
  const maxPages = integer(env, 'SOUNDCLOUD_RSS_MAX_PAGES', 1, 1, 20);
  const soundcloud = credentials(env, 'SOUNDCLOUD_CLIENT_ID', 'SOUNDCLOUD_CLIENT_SECRET');
  const soundcloudApiUrl = url(env, 'SOUNDCLOUD_API_URL', DEFAULTS.soundcloudApiUrl) ?? DEFAULTS.soundcloudApiUrl;
  const soundcloudAuthUrl = url(env, 'SOUNDCLOUD_AUTH_URL', DEFAULTS.soundcloudAuthUrl) ?? DEFAULTS.soundcloudAuthUrl;
  const twitch = credentials(env, 'TWITCH_CLIENT_ID', 'TWITCH_CLIENT_SECRET');
  const twitchApiUrl = url(env, 'TWITCH_API_URL', DEFAULTS.twitchApiUrl) ?? DEFAULTS.twitchApiUrl;
  const twitchAuthUrl = url(env, 'TWITCH_AUTH_URL', DEFAULTS.twitchAuthUrl) ?? DEFAULTS.twitchAuthUrl;
  // TWITCH_CHANNEL is read and checked with the other radio settings (../radio.ts).
  const channel = radio.twitchChannel;
  const azuracastUrl = url(env, 'AZURACAST_NOWPLAYING_URL');
  const scheduleUrls = (value(env, 'SCHEDULE_ICS_URLS') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    // A calendar's « webcal: » address is its https one (what calendar programs subscribe to).
    .map((part) => part.replace(/^webcal:/i, 'https:'))
    // Each one checked as the other addresses are (http or https, a valid URL).
    .map((part) => url({ SCHEDULE_ICS_URLS: part }, 'SCHEDULE_ICS_URLS') ?? part);
  if (scheduleUrls.length > 10) throw new ConfigError('SCHEDULE_ICS_URLS', '10 agendas au plus');
  const adminToken = value(env, 'ADMIN_TOKEN') ?? null;
  if (adminToken !== null && (adminToken.length < 8 || /\s/.test(adminToken))) {
    throw new ConfigError('ADMIN_TOKEN', 'au moins 8 caractères, sans espace');
  }
  const seconds = (name: string, fallback: number, max: number) => integer(env, name, fallback, 1, max) * 1000;
  return {
    rss: rssUrl === undefined ? null : { url: rssUrl, maxPages },
    soundcloud: soundcloud === null ? null : { ...soundcloud, apiUrl: soundcloudApiUrl, authUrl: soundcloudAuthUrl },
    twitch: twitch === null ? null : { ...twitch, channel, apiUrl: twitchApiUrl, authUrl: twitchAuthUrl },
    radio,
    azuracast: azuracastUrl === undefined ? null : { url: azuracastUrl },
    schedule: scheduleUrls.length === 0 ? null : { urls: scheduleUrls },
    ttlMs: {
      feed: seconds('FEED_TTL_S', 300, 86_400),
      live: seconds('ISLIVE_TTL_S', 30, 3600),
      nowPlaying: seconds('NOWPLAYING_TTL_S', 15, 3600),
      track: seconds('TRACK_TTL_S', 300, 86_400),
      schedule: seconds('SCHEDULE_TTL_S', 300, 86_400),
    },
    upstream: {
      timeoutMs: integer(env, 'UPSTREAM_TIMEOUT_MS', 5000, 100, 120_000),
      maxBytes: integer(env, 'UPSTREAM_MAX_BYTES', 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    },
    demo: {
      live: boolean(env, 'DEMO_LIVE', false),
      rotationMs: seconds('DEMO_ROTATION_S', 180, 86_400),
      audioDir: join(SERVER_DIR, '.demo'),
      generateAudio: true,
      residencesFile: join(workspaceRoot, 'shared', 'content', 'residences.json'),
    },
    adminToken,
    limits: {
      trackPerMinute: integer(env, 'RATE_LIMIT_TRACK_PER_MIN', 60, 1, 100_000),
      ssePerMinute: integer(env, 'RATE_LIMIT_SSE_PER_MIN', 20, 1, 100_000),
      sseConnectionsPerClient: integer(env, 'SSE_MAX_PER_CLIENT', 5, 1, 1000),
      liveListeners: integer(env, 'DEMO_LIVE_MAX_LISTENERS', 200, 1, 100_000),
    },
    releasesFile: join(SERVER_DIR, 'content', 'releases.json'),
    ssePingMs: 25_000,
  };
}
