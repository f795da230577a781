import { ConfigError } from '../settings/config';
import { readSupportConfig } from './config';

const ALL = {
  HELLOASSO_CLIENT_ID: 'client-du-collectif',
  HELLOASSO_CLIENT_SECRET: 'secret-du-collectif',
  HELLOASSO_ORGANIZATION: 'collectif-garonne',
  HELLOASSO_MEMBERSHIP_FORM: 'adhesion-2026',
  HELLOASSO_DONATION_FORM: 'dons',
  HELLOASSO_NOTIFICATION_KEY: 'cle-des-notifications-0123456789',
};

describe('readSupportConfig', () => {
  it('is the demo with nothing set, HelloAsso with all six, production by default', () => {
    expect(readSupportConfig({})).toEqual({ helloasso: null, demo: true, taxReceipt: false });
    // Deployed for real, no demo: an https origin, or teams' deploys.
    expect(readSupportConfig({ SITE_ORIGIN: 'http://127.0.0.1:8080' }).demo).toBe(true);
    expect(readSupportConfig({ SITE_ORIGIN: 'https://radio.example.org' }).demo).toBe(false);
    expect(readSupportConfig({ DEPLOY_TOKENS: 'label:jeton-de-test-de-24-caracteres' }).demo).toBe(false);
    expect(readSupportConfig({ ...ALL, SUPPORT_TAX_RECEIPT: 'oui' })).toEqual({
      helloasso: {
        clientId: 'client-du-collectif',
        clientSecret: 'secret-du-collectif',
        organization: 'collectif-garonne',
        membershipForm: 'adhesion-2026',
        donationForm: 'dons',
        apiUrl: 'https://api.helloasso.com',
        notificationKey: 'cle-des-notifications-0123456789',
      },
      demo: false,
      taxReceipt: true,
    });
    expect(
      readSupportConfig({ ...ALL, HELLOASSO_API_URL: 'https://api.helloasso-sandbox.com/' }).helloasso?.apiUrl,
    ).toBe('https://api.helloasso-sandbox.com');
  });

  it('stops on one set without the others, naming the missing one, and on a malformed slug', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        readSupportConfig(env);
      } catch (error) {
        return error instanceof ConfigError ? error.message : String(error);
      }
      return 'accepté';
    };
    expect(refusal({ HELLOASSO_CLIENT_ID: 'client' })).toMatch(
      /^HELLOASSO_CLIENT_SECRET : manquant alors que HELLOASSO_CLIENT_ID/,
    );
    expect(refusal({ ...ALL, HELLOASSO_ORGANIZATION: 'Collectif Garonne' })).toMatch(/^HELLOASSO_ORGANIZATION/);
    expect(refusal({ ...ALL, HELLOASSO_API_URL: 'ftp://api.helloasso.com' })).toMatch(/^HELLOASSO_API_URL/);
    // The notifications' secret goes with the five: a short one, or one that is not a path's segment, stops it.
    const { HELLOASSO_NOTIFICATION_KEY: _key, ...five } = ALL;
    expect(refusal(five)).toMatch(/^HELLOASSO_NOTIFICATION_KEY : manquant alors que HELLOASSO_CLIENT_ID/);
    expect(refusal({ ...ALL, HELLOASSO_NOTIFICATION_KEY: 'courte' })).toMatch(/^HELLOASSO_NOTIFICATION_KEY/);
    expect(refusal({ ...ALL, HELLOASSO_NOTIFICATION_KEY: 'une/cle/avec/des/barres/obliques' })).toMatch(
      /^HELLOASSO_NOTIFICATION_KEY/,
    );
  });
});
