import { ConfigError, type Env } from '../settings/config';
import { setting } from '../settings/settings';

/** Who the site is to HelloAsso, and which of its forms it reads (docs/support.md). */
export interface HelloAssoAccount {
  clientId: string;
  clientSecret: string;
  /** The association's slug. */
  organization: string;
  /** The year's membership form's slug: its tiers, its orders. */
  membershipForm: string;
  /** The donation form's slug: a monthly gift goes to its page. */
  donationForm: string;
  /** The API's root (production or sandbox): `/v5/…` and `/oauth2/token` under it. */
  apiUrl: string;
  /** The secret in the address HelloAsso notifies (HELLOASSO_NOTIFICATION_KEY). */
  notificationKey: string;
}

/** The support page's settings (docs/settings.md, docs/support.md). */
export interface SupportConfig {
  /** The collective's HelloAsso; null: the demo's, or none where the site is deployed (`demo`). */
  helloasso: HelloAssoAccount | null;
  /**
   * Whether the demo's HelloAsso runs: without HelloAsso's settings, and only where the site is not
   * deployed for real (an https SITE_ORIGIN, or DEPLOY_TOKENS set). There, « Nous soutenir » is the
   * external link of site.json instead (docs/support.md, « The demo »).
   */
  demo: boolean;
  /** Whether gifts give a tax receipt (SUPPORT_TAX_RECEIPT). */
  taxReceipt: boolean;
}

const NAMES = [
  'HELLOASSO_CLIENT_ID',
  'HELLOASSO_CLIENT_SECRET',
  'HELLOASSO_ORGANIZATION',
  'HELLOASSO_MEMBERSHIP_FORM',
  'HELLOASSO_DONATION_FORM',
  'HELLOASSO_NOTIFICATION_KEY',
] as const;

/**
 * The support settings: HelloAsso's six values all set, or none (the demo). One set without the
 * others stops the server, naming the first missing one.
 */
export function readSupportConfig(env: Env): SupportConfig {
  const values = NAMES.map((name) => setting(env, name));
  const taxReceipt = setting(env, 'SUPPORT_TAX_RECEIPT');
  if (values.every((value) => value === undefined)) {
    const deployed =
      setting(env, 'SITE_ORIGIN')?.startsWith('https:') === true || setting(env, 'DEPLOY_TOKENS') !== undefined;
    return { helloasso: null, demo: !deployed, taxReceipt };
  }
  const missing = NAMES.find((_name, i) => values[i] === undefined);
  if (missing !== undefined) {
    const given = NAMES.find((_name, i) => values[i] !== undefined) ?? NAMES[0];
    throw new ConfigError(missing, `manquant alors que ${given} est défini (HelloAsso a besoin des six)`);
  }
  const [clientId, clientSecret, organization, membershipForm, donationForm, notificationKey] = values as string[] as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    helloasso: {
      clientId,
      clientSecret,
      organization,
      membershipForm,
      donationForm,
      apiUrl: setting(env, 'HELLOASSO_API_URL'),
      notificationKey,
    },
    demo: false,
    taxReceipt,
  };
}
