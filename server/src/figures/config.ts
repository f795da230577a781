import type { Env } from '../settings/config';
import { setting } from '../settings/settings';

/** The audience figures' settings (docs/figures.md, docs/settings.md). */
export interface FiguresConfig {
  /** Where the aggregates are kept (FIGURES_DIR); null: the folder `audience` of CONTENT_DIR. */
  dir: string | null;
  /** Icecast's statistics (ICECAST_STATUS_URL, with ICECAST_ADMIN_PASSWORD for /admin/stats); null: not read. */
  icecast: { url: string; adminPassword: string | null } | null;
  /** Beacons one address may send a minute (FIGURES_BEACONS_PER_MIN), counted across the instances. */
  beaconsPerMinute: number;
  /**
   * The Redis that keeps nothing on disk, for the salt and the salted names (FIGURES_REDIS_URL);
   * null: each instance keeps its own.
   */
  redisUrl: string | null;
  /** The admins' token for GET /metrics from outside the loopback (METRICS_TOKEN); null: loopback only. */
  metricsToken: string | null;
  /**
   * Whether the live is sampled each minute once the server listens (always, but in the tests, which
   * sample when they choose: a sample reads the upstreams).
   */
  sampling: boolean;
  /** How often the live is sampled (FIGURES_SAMPLE_SECONDS), in milliseconds. */
  sampleMs: number;
}

export function readFiguresConfig(env: Env): FiguresConfig {
  const icecast = setting(env, 'ICECAST_STATUS_URL');
  return {
    dir: setting(env, 'FIGURES_DIR') ?? null,
    icecast:
      icecast === undefined ? null : { url: icecast, adminPassword: setting(env, 'ICECAST_ADMIN_PASSWORD') ?? null },
    beaconsPerMinute: setting(env, 'FIGURES_BEACONS_PER_MIN'),
    redisUrl: setting(env, 'FIGURES_REDIS_URL') ?? null,
    metricsToken: setting(env, 'METRICS_TOKEN') ?? null,
    sampling: true,
    sampleMs: setting(env, 'FIGURES_SAMPLE_SECONDS'),
  };
}
