import { ConfigError, type Env } from '../settings/config';
import { setting } from '../settings/settings';

/** « Me prévenir »'s settings (docs/settings.md, docs/push.md « Keys »). */
export interface PushConfig {
  /** The VAPID key pair and subject; null: the demo's own pair (`demo`), or none. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /**
   * Whether the demo makes its own pair in CONTENT_DIR: without the settings, and only where the
   * site is not deployed for real (an https SITE_ORIGIN, or DEPLOY_TOKENS set), as the demo's
   * HelloAsso (docs/support.md, « The demo »). Deployed without them, « Me prévenir » is off.
   */
  demo: boolean;
  /** Push services allowed beside the browsers' own (PUSH_SERVICES). */
  extraHosts: string[];
  /** The memory the subscriptions may take (bytes), PUSH_STORE_MB. */
  storeBytes: number;
  /** Days a subscription is kept after its browser last saved or renewed it, PUSH_SUBSCRIPTION_DAYS. */
  keptDays: number;
  perNetwork: number;
  /** New subscriptions a wider network (an IPv6 /48, an IPv4 /24) may make per day. */
  perWideNetwork: number;
  /**
   * Whether the instance holding the lease watches the programme and the feed once the server
   * listens: always, but in tests, which look when they choose (`app.push.check()`).
   */
  watching: boolean;
}

const NAMES = ['PUSH_VAPID_PUBLIC_KEY', 'PUSH_VAPID_PRIVATE_KEY', 'PUSH_VAPID_SUBJECT'] as const;

/** The three VAPID settings all set, or none; one without the others stops the server, naming it. */
export function readPushConfig(env: Env): PushConfig {
  const values = NAMES.map((name) => setting(env, name));
  const common = {
    extraHosts: (setting(env, 'PUSH_SERVICES') ?? []).map((host) => host.toLowerCase()),
    storeBytes: setting(env, 'PUSH_STORE_MB') * 1024 * 1024,
    keptDays: setting(env, 'PUSH_SUBSCRIPTION_DAYS'),
    perNetwork: setting(env, 'PUSH_SUBSCRIPTIONS_PER_NETWORK'),
    perWideNetwork: setting(env, 'PUSH_SUBSCRIPTIONS_PER_WIDE_NETWORK'),
    watching: true,
  };
  if (values.every((value) => value === undefined)) {
    const deployed =
      setting(env, 'SITE_ORIGIN')?.startsWith('https:') === true || setting(env, 'DEPLOY_TOKENS') !== undefined;
    return { vapid: null, demo: !deployed, ...common };
  }
  const missing = NAMES.find((_name, i) => values[i] === undefined);
  if (missing !== undefined) {
    const given = NAMES.find((_name, i) => values[i] !== undefined) ?? NAMES[0];
    throw new ConfigError(missing, `manquant alors que ${given} est défini (les notifications ont besoin des trois)`);
  }
  const [publicKey, privateKey, subject] = values as [string, string, string];
  return { vapid: { publicKey, privateKey, subject }, demo: false, ...common };
}
