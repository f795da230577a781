import { createECDH, randomBytes } from 'node:crypto';
import { checkSubscription, ENDPOINT_MAX, extraHostsOf, hostOf, REFUSALS } from './endpoint';

/** A browser's keys: a fresh P-256 point and 16 random bytes, unpadded base64url. */
function browserKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

const none = extraHostsOf([]);
const keys = browserKeys();
const at = (endpoint: string, extra = none) => checkSubscription({ endpoint, keys }, extra);
const refusal = (endpoint: string, extra = none) => {
  const checked = at(endpoint, extra);
  return checked.ok ? null : checked.message;
};

describe('a subscription given by a visitor', () => {
  it.each([
    'https://fcm.googleapis.com/fcm/send/dGVzdDpBUEE5MWJI',
    'https://fcm.googleapis.com/wp/dGVzdA',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
    'https://web.push.apple.com/QGx0ZXN0',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
    'https://db5p.notify.windows.com/w/?token=abc',
    'https://FCM.googleapis.com:443/fcm/send/abc',
  ])('is kept when its endpoint is a browser vendor push service: %s', (endpoint) => {
    const checked = at(endpoint);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(checked.value.endpoint).toBe(new URL(endpoint).href);
  });

  it.each([
    ['http, not https', 'http://fcm.googleapis.com/fcm/send/abc'],
    ['another scheme', 'wss://fcm.googleapis.com/fcm/send/abc'],
    ['a user name', 'https://moi@fcm.googleapis.com/fcm/send/abc'],
    ['a user name and a password', 'https://moi:secret@fcm.googleapis.com/fcm/send/abc'],
    ['a fragment', 'https://fcm.googleapis.com/fcm/send/abc#x'],
    ['an empty fragment', 'https://fcm.googleapis.com/fcm/send/abc#'],
    ['another host', 'https://push.example.com/abc'],
    ['a look-alike suffix', 'https://notify.windows.com.evil.example/w/'],
    ['a look-alike prefix', 'https://evilnotify.windows.com/w/'],
    ['the bare Windows domain', 'https://notify.windows.com/w/'],
    ['an empty label', 'https://.notify.windows.com/w/'],
    ['a trailing dot', 'https://fcm.googleapis.com./fcm/send/abc'],
    ['a vendor host as a subdomain', 'https://fcm.googleapis.com.evil.example/x'],
    ['a parent of a vendor host', 'https://googleapis.com/x'],
    ['an explicit port', 'https://fcm.googleapis.com:8443/fcm/send/abc'],
    ['an IPv4 literal', 'https://127.0.0.1/x'],
    ['an IPv4 literal in hexadecimal', 'https://0x7f.1/x'],
    ['an IPv4 literal as one number', 'https://2130706433/x'],
    ['a private IPv4 literal', 'https://10.0.0.1/x'],
    ['an IPv6 literal', 'https://[::1]/x'],
    ['an IPv4-mapped IPv6 literal', 'https://[::ffff:127.0.0.1]/x'],
    ['a relative address', '/fcm/send/abc'],
    ['no address', ''],
    ['an address too long', `https://fcm.googleapis.com/fcm/send/${'a'.repeat(ENDPOINT_MAX)}`],
  ])('is refused for %s, with the French message and nothing of what was given', (_, endpoint) => {
    const message = refusal(endpoint);
    expect(message).toBe("L'adresse du service de notifications n'est pas reconnue.");
    expect(message).not.toContain(endpoint || '§');
  });

  it('takes a self-hosted push service of the extra list, with its port, and no other port', () => {
    const extra = extraHostsOf([
      'push.collectif.example',
      'relais.collectif.example:8443',
      '127.0.0.1:4430',
      '[::1]:4431',
    ]);
    expect(at('https://push.collectif.example/abc', extra).ok).toBe(true);
    expect(at('https://relais.collectif.example:8443/abc', extra).ok).toBe(true);
    expect(at('https://127.0.0.1:4430/push/a', extra).ok).toBe(true);
    expect(at('https://[::1]:4431/push/a', extra).ok).toBe(true);
    expect(refusal('https://push.collectif.example:8443/abc', extra)).toBe(REFUSALS.endpoint);
    expect(refusal('https://relais.collectif.example/abc', extra)).toBe(REFUSALS.endpoint);
    expect(refusal('https://127.0.0.1/push/a', extra)).toBe(REFUSALS.endpoint);
    expect(refusal('https://127.0.0.1:4431/push/a', extra)).toBe(REFUSALS.endpoint);
    expect(refusal('https://sous.push.collectif.example/abc', extra)).toBe(REFUSALS.endpoint);
    expect(refusal('http://127.0.0.1:4430/push/a', extra)).toBe(REFUSALS.endpoint);
  });

  it('refuses an unreadable entry of the extra list at once', () => {
    expect(() => extraHostsOf(['https://push.example'])).toThrow(/illisible/);
    expect(() => extraHostsOf(['moi@push.example'])).toThrow(/illisible/);
    expect(() => extraHostsOf(['push.example/chemin'])).toThrow(/illisible/);
    expect(() => extraHostsOf(['push.example:99999'])).toThrow(/illisible/);
  });

  it('keeps the keys unpadded, tolerating padding but not the standard alphabet', () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    const padded = checkSubscription({ endpoint, keys: { p256dh: `${keys.p256dh}=`, auth: `${keys.auth}==` } }, none);
    expect(padded).toEqual({ ok: true, value: { endpoint, keys } });
    const standard = Buffer.from(keys.p256dh, 'base64url').toString('base64');
    const refused = checkSubscription({ endpoint, keys: { p256dh: standard, auth: keys.auth } }, none);
    // The standard alphabet is refused only when it differs from base64url (a `+` or a `/` in it).
    if (/[+/]/.test(standard)) expect(refused).toEqual({ ok: false, message: REFUSALS.p256dh });
    expect(checkSubscription({ endpoint, expirationTime: null, keys }, none).ok).toBe(true);
  });

  it.each([
    ['a point of 64 bytes', Buffer.alloc(64, 4), 'p256dh'],
    ['a point of 66 bytes', Buffer.concat([Buffer.from(keys.p256dh, 'base64url'), Buffer.from([1])]), 'p256dh'],
    [
      'a compressed point',
      Buffer.concat([Buffer.from([2]), Buffer.from(keys.p256dh, 'base64url').subarray(1, 33)]),
      'p256dh',
    ],
    [
      'a point whose first byte is not 4',
      Buffer.concat([Buffer.from([5]), Buffer.from(keys.p256dh, 'base64url').subarray(1)]),
      'p256dh',
    ],
    ['a point off the curve', Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]), 'p256dh'],
  ])('refuses %s as the encryption key', (_, point, which) => {
    const checked = checkSubscription(
      { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { ...keys, [which]: point.toString('base64url') } },
      none,
    );
    expect(checked).toEqual({ ok: false, message: "La clé de chiffrement de l'abonnement n'est pas valable." });
  });

  it.each([
    ['15 bytes', randomBytes(15).toString('base64url')],
    ['17 bytes', randomBytes(17).toString('base64url')],
    ['an empty secret', ''],
    ['characters outside base64url', '!!!!!!!!!!!!!!!!!!!!!!'],
  ])('refuses an authentication secret of %s', (_, auth) => {
    const checked = checkSubscription(
      { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { ...keys, auth } },
      none,
    );
    expect(checked).toEqual({ ok: false, message: "Le secret d'authentification de l'abonnement n'est pas valable." });
  });

  it.each([
    ['nothing', undefined],
    ['a text', 'https://fcm.googleapis.com/fcm/send/abc'],
    ['no keys', { endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }],
    ['keys that are not texts', { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 1, auth: 2 } }],
  ])('refuses a subscription of the wrong shape: %s', (_, input) => {
    expect(checkSubscription(input, none)).toEqual({
      ok: false,
      message: "L'abonnement aux notifications est mal formé.",
    });
  });

  it('logs only the host of an endpoint, never its secret path', () => {
    expect(hostOf('https://fcm.googleapis.com/fcm/send/secret')).toBe('fcm.googleapis.com');
    expect(hostOf('https://127.0.0.1:4430/push/secret')).toBe('127.0.0.1:4430');
    expect(hostOf('pas une adresse')).toBe('adresse illisible');
  });
});
