import { siteConfig } from '@collectif/shared/config';
import type { Env } from '../settings/config';
import { setting } from '../settings/settings';

/** The proposals' settings (docs/settings.md, docs/proposals.md « Settings »). */
export interface ProposalsConfig {
  /** The mail server; null: no e-mail is sent (the demo), and the editor's answers say `mail: 'off'`. */
  smtp: { host: string; port: number; secure: boolean; user?: string; password?: string; from: string } | null;
  /** The collective's addresses, by kind. */
  to: { emission: string; demo: string };
  perNetwork: number;
  perNetworkForm: number;
  /** Proposals a wider network (an IPv6 /48, an IPv4 /24) may send a day. */
  perWideNetwork: number;
  /** The memory the proposals may take (bytes), PROPOSALS_STORE_MB. */
  storeBytes: number;
  mailTries: number;
}

export function readProposalsConfig(env: Env): ProposalsConfig {
  const host = setting(env, 'SMTP_HOST');
  const user = setting(env, 'SMTP_USER');
  const password = setting(env, 'SMTP_PASSWORD');
  const from =
    setting(env, 'SMTP_FROM') ?? (user?.includes('@') === true ? user : undefined) ?? siteConfig.emails.contact;
  return {
    smtp:
      host === undefined
        ? null
        : {
            host,
            port: setting(env, 'SMTP_PORT'),
            secure: setting(env, 'SMTP_SECURE'),
            ...(user === undefined ? {} : { user }),
            ...(password === undefined ? {} : { password }),
            from,
          },
    to: {
      emission: setting(env, 'PROPOSALS_SHOWS_EMAIL') ?? siteConfig.emails.shows,
      demo: setting(env, 'PROPOSALS_LABEL_EMAIL') ?? siteConfig.emails.labelDemos,
    },
    perNetwork: setting(env, 'PROPOSALS_PER_NETWORK'),
    perNetworkForm: setting(env, 'PROPOSALS_PER_NETWORK_FORM'),
    perWideNetwork: setting(env, 'PROPOSALS_PER_WIDE_NETWORK'),
    storeBytes: setting(env, 'PROPOSALS_STORE_MB') * 1024 * 1024,
    mailTries: setting(env, 'PROPOSALS_MAIL_TRIES'),
  };
}
