import { join, resolve } from 'node:path';
import { workspaceRoot, type Env } from '../settings/config';
import { setting } from '../settings/settings';

/** Which live shows are kept (LIVE_ARCHIVE, docs/archive.md, « Who decides »). */
export type ArchiveMode = 'off' | 'chosen' | 'all';

/** The live archives' settings (docs/settings.md, « Listening back »; docs/archive.md). */
export interface ArchiveConfig {
  mode: ArchiveMode;
  /**
   * The demo keeps one residence's shows: LIVE_ARCHIVE unset, no SCHEDULE_ICS_URLS (the demo's
   * programme), and the site not deployed for real (an https SITE_ORIGIN, or DEPLOY_TOKENS).
   */
  demo: boolean;
  /** LIVE_ARCHIVE_DIR, absolute. */
  dir: string;
  keepMs: number;
  maxBytes: number;
  /** LIVE_ARCHIVE_FREE_MB: the free disk a new archive leaves. */
  reserveBytes: number;
  /** Whether the archiver watches the programme once the server listens: always, but in tests, which look when they choose. */
  watching: boolean;
}

const MB = 1_000_000;

export function readArchiveConfig(env: Env): ArchiveConfig {
  const chosen = setting(env, 'LIVE_ARCHIVE');
  const deployed =
    setting(env, 'SITE_ORIGIN')?.startsWith('https:') === true || setting(env, 'DEPLOY_TOKENS') !== undefined;
  // By default beside the timeline's folder, on its disk: whatever runs the site with a folder of its
  // own for the timeline (the tests, the browser tests) has its archives there too, never in the checkout.
  const timeline = resolve(setting(env, 'LIVE_TIMESHIFT_DIR') ?? join(workspaceRoot, 'server', '.timeshift'));
  const demo = chosen === undefined && setting(env, 'SCHEDULE_ICS_URLS') === undefined && !deployed;
  return {
    mode: chosen ?? (demo ? 'chosen' : 'off'),
    demo,
    dir: resolve(setting(env, 'LIVE_ARCHIVE_DIR') ?? `${timeline}-archives`),
    keepMs: setting(env, 'LIVE_ARCHIVE_DAYS') * 24 * 3600_000,
    maxBytes: setting(env, 'LIVE_ARCHIVE_MAX_MB') * MB,
    reserveBytes: setting(env, 'LIVE_ARCHIVE_FREE_MB') * MB,
    watching: true,
  };
}
