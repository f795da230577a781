import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { RadioSettings } from '@collectif/shared/config';
import { ConfigError, workspaceRoot, type Env } from '../settings/config';
import { setting } from '../settings/settings';
import { readRadioSettings } from '../settings/radio';
import { readFiguresConfig, type FiguresConfig } from '../figures/config';
import { readSupportConfig, type SupportConfig } from '../support/config';
import { readPushConfig, type PushConfig } from '../push/config';
import { readProposalsConfig, type ProposalsConfig } from '../proposals/config';
import { readArchiveConfig, type ArchiveConfig } from '../archive/config';

/** Where an OAuth client-credentials service lives and who we are to it. */
/** A session ends 12 hours after its sign-in, however busy its editor. */
export const SESSION_MAX_AGE_MS = 12 * 3600_000;

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
  /**
   * The radio's run-time settings (stream and its renditions, the timeline's playlist, chat, Twitch
   * channel), answered at GET /api/radio.
   */
  radio: RadioSettings;
  /**
   * The live's timeline (docs/settings.md, « Listening back »): `hours` kept (LIVE_TIMESHIFT_HOURS,
   * 0: off), the folder of its segments (LIVE_TIMESHIFT_DIR, absolute), each segment's length.
   */
  timeshift: { hours: number; dir: string; segmentSeconds: number };
  /** The live shows kept as replays when their slot ends (docs/archive.md). */
  archive: ArchiveConfig;
  /** Memberships and gifts through HelloAsso (docs/support.md); its `helloasso` null: the demo's. */
  support: SupportConfig;
  /** The audience figures and the admins' metrics (docs/figures.md). */
  figures: FiguresConfig;
  /** « Me prévenir »: the VAPID keys and the bounds (docs/push.md). */
  push: PushConfig;
  /** « Proposer une émission » and « Envoyer une démo »: the mail server, the addresses, the bounds (docs/proposals.md). */
  proposals: ProposalsConfig;
  /** AzuraCast now-playing URL; null: the demo rotation. */
  azuracast: { url: string } | null;
  /** The collective's calendars (SCHEDULE_ICS_URLS, their ICS addresses); null: the demo's. */
  schedule: { urls: string[] } | null;
  /** The collective's events calendars (EVENTS_ICS_URLS, their ICS addresses); null: the demo's. */
  events: { urls: string[] } | null;
  ttlMs: { feed: number; live: number; nowPlaying: number; track: number; schedule: number; events: number };
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
    /** The demo's events (server/content/demo-events.json), from which its events calendar is made. */
    eventsFile: string;
  };
  /** Bearer token of POST /api/admin/live; null: the route does not exist. */
  adminToken: string | null;
  /**
   * SITE_SECRET: the key of what the instances keep in Redis (sessions under its keyed hash,
   * content versions signed); without REDIS_URL, drawn at random for this process.
   */
  siteSecret: string;
  limits: {
    trackPerMinute: number;
    ssePerMinute: number;
    sseConnectionsPerClient: number;
    liveListeners: number;
    /** Per editor account, counted across the instances (docs/content.md, « Bounds »). */
    editorWritesPerMinute: number;
    editorPreviewsPerMinute: number;
    editorUploadsPerMinute: number;
    /** Picture uploads an instance holds at once (CONTENT_PICTURE_UPLOADS). */
    pictureUploadsAtOnce: number;
  };
  releasesFile: string;
  /** CONTENT_DIR: the content volunteers edit, one folder of versions per kind (docs/content.md). */
  contentDir: string;
  /** CONTENT_PICTURE_MAX_BYTES: the largest picture an editor may upload (docs/content.md, « Pictures »). */
  pictureMaxBytes: number;
  /** How many versions of each kind are kept, and for how long (docs/content.md, « Pruning »). */
  contentVersions: { kept: number; maxAgeMs: number };
  /** Volunteers' sessions and sign-ins (docs/content.md, « Signing in »). */
  /**
   * Sessions end after `idleMs` without a request, and `maxAgeMs` after their sign-in whatever
   * (docs/content.md, « Signing in »).
   */
  editor: { idleMs: number; maxAgeMs: number; attemptsPerMinute: number };
  ssePingMs: number;
}

export const SERVER_DIR = join(workspaceRoot, 'server');

/** Both halves of a credential pair, or neither (the service then runs in demo mode). */
function credentials(
  env: Env,
  idName: 'SOUNDCLOUD_CLIENT_ID' | 'TWITCH_CLIENT_ID',
  secretName: 'SOUNDCLOUD_CLIENT_SECRET' | 'TWITCH_CLIENT_SECRET',
): { clientId: string; clientSecret: string } | null {
  const clientId = setting(env, idName);
  const clientSecret = setting(env, secretName);
  if (clientId === undefined && clientSecret === undefined) return null;
  if (clientId === undefined) throw new ConfigError(idName, `manquant alors que ${secretName} est défini`);
  if (clientSecret === undefined) throw new ConfigError(secretName, `manquant alors que ${idName} est défini`);
  return { clientId, clientSecret };
}

/**
 * Reads and checks the /api configuration from the environment (docs/settings.md). A wrong
 * value throws ConfigError naming the variable; an upstream left unset runs on the embedded demo.
 */
export function readApiConfig(env: Env, radio: RadioSettings = readRadioSettings(env)): ApiConfig {
  const rssUrl = setting(env, 'SOUNDCLOUD_RSS_URL');
  const maxPages = setting(env, 'SOUNDCLOUD_RSS_MAX_PAGES');
  const soundcloud = credentials(env, 'SOUNDCLOUD_CLIENT_ID', 'SOUNDCLOUD_CLIENT_SECRET');
  const twitch = credentials(env, 'TWITCH_CLIENT_ID', 'TWITCH_CLIENT_SECRET');
  // TWITCH_CHANNEL is read and checked with the other radio settings (../radio.ts).
  const channel = radio.twitchChannel;
  const azuracastUrl = setting(env, 'AZURACAST_NOWPLAYING_URL');
  const scheduleUrls = setting(env, 'SCHEDULE_ICS_URLS') ?? [];
  const eventsUrls = setting(env, 'EVENTS_ICS_URLS') ?? [];
  const adminToken = setting(env, 'ADMIN_TOKEN') ?? null;
  const siteSecret = setting(env, 'SITE_SECRET');
  if (siteSecret === undefined && setting(env, 'REDIS_URL') !== undefined) {
    throw new ConfigError(
      'SITE_SECRET',
      'manquant alors que REDIS_URL est défini : les instances en ont besoin pour signer ce qu’elles gardent dans Redis',
    );
  }
  return {
    rss: rssUrl === undefined ? null : { url: rssUrl, maxPages },
    soundcloud:
      soundcloud === null
        ? null
        : { ...soundcloud, apiUrl: setting(env, 'SOUNDCLOUD_API_URL'), authUrl: setting(env, 'SOUNDCLOUD_AUTH_URL') },
    twitch:
      twitch === null
        ? null
        : { ...twitch, channel, apiUrl: setting(env, 'TWITCH_API_URL'), authUrl: setting(env, 'TWITCH_AUTH_URL') },
    radio,
    timeshift: {
      hours: setting(env, 'LIVE_TIMESHIFT_HOURS'),
      dir: resolve(setting(env, 'LIVE_TIMESHIFT_DIR') ?? join(SERVER_DIR, '.timeshift')),
      segmentSeconds: setting(env, 'LIVE_TIMESHIFT_SEGMENT_S'),
    },
    archive: readArchiveConfig(env),
    support: readSupportConfig(env),
    figures: readFiguresConfig(env),
    push: readPushConfig(env),
    proposals: readProposalsConfig(env),
    azuracast: azuracastUrl === undefined ? null : { url: azuracastUrl },
    schedule: scheduleUrls.length === 0 ? null : { urls: scheduleUrls },
    events: eventsUrls.length === 0 ? null : { urls: eventsUrls },
    ttlMs: {
      feed: setting(env, 'FEED_TTL_S'),
      live: setting(env, 'ISLIVE_TTL_S'),
      nowPlaying: setting(env, 'NOWPLAYING_TTL_S'),
      track: setting(env, 'TRACK_TTL_S'),
      schedule: setting(env, 'SCHEDULE_TTL_S'),
      events: setting(env, 'EVENTS_TTL_S'),
    },
    upstream: {
      timeoutMs: setting(env, 'UPSTREAM_TIMEOUT_MS'),
      maxBytes: setting(env, 'UPSTREAM_MAX_BYTES'),
    },
    demo: {
      live: setting(env, 'DEMO_LIVE'),
      rotationMs: setting(env, 'DEMO_ROTATION_S'),
      audioDir: join(SERVER_DIR, '.demo'),
      generateAudio: true,
      residencesFile: join(workspaceRoot, 'shared', 'content', 'residences.json'),
      eventsFile: join(SERVER_DIR, 'content', 'demo-events.json'),
    },
    adminToken,
    siteSecret: siteSecret ?? randomBytes(32).toString('base64url'),
    limits: {
      trackPerMinute: setting(env, 'RATE_LIMIT_TRACK_PER_MIN'),
      ssePerMinute: setting(env, 'RATE_LIMIT_SSE_PER_MIN'),
      sseConnectionsPerClient: setting(env, 'SSE_MAX_PER_CLIENT'),
      liveListeners: setting(env, 'DEMO_LIVE_MAX_LISTENERS'),
      editorWritesPerMinute: setting(env, 'EDITOR_WRITES_PER_MIN'),
      editorPreviewsPerMinute: setting(env, 'EDITOR_PREVIEWS_PER_MIN'),
      editorUploadsPerMinute: setting(env, 'EDITOR_UPLOADS_PER_MIN'),
      pictureUploadsAtOnce: setting(env, 'CONTENT_PICTURE_UPLOADS'),
    },
    releasesFile: join(SERVER_DIR, 'content', 'releases.json'),
    contentDir: setting(env, 'CONTENT_DIR') ?? join(SERVER_DIR, '.content'),
    pictureMaxBytes: setting(env, 'CONTENT_PICTURE_MAX_BYTES'),
    contentVersions: {
      kept: setting(env, 'CONTENT_VERSIONS_KEPT'),
      maxAgeMs: setting(env, 'CONTENT_VERSIONS_DAYS') * 86_400_000,
    },
    editor: {
      idleMs: setting(env, 'EDITOR_IDLE_MIN') * 60_000,
      maxAgeMs: SESSION_MAX_AGE_MS,
      attemptsPerMinute: setting(env, 'EDITOR_SIGNIN_PER_MIN'),
    },
    ssePingMs: 25_000,
  };
}
