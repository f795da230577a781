import type { Page } from '@playwright/test';

// « Me prévenir » in the browser tests (docs/follow.md, « Me prévenir »): the browser's push service,
// which the test's Chromium cannot reach, stood in for. `PushManager`'s subscribe and getSubscription
// answer with a subscription as Chrome makes one (an FCM endpoint, a P-256 public key made by the
// page's own WebCrypto, a 16-byte secret, base64url), kept in the page's storage as a browser keeps
// its own. The site's server is the real one: it checks the subscription as it checks any.

/** Replaces the browser's push service in every page of `page`'s context (before any script of the site). */
export async function fakePushService(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const random = (length: number) => crypto.getRandomValues(new Uint8Array(length));
    const base64Url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    const seen = { subscribed: 0, unsubscribed: 0, asked: 0 };
    Object.assign(window, { pushSeen: seen });
    // Counted, then asked of the browser as it is.
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
      seen.asked += 1;
      return ask(...args);
    };
    // Kept for the browser's life as a real one is: across the pages of the test, in its storage.
    const KEPT = 'e2e:abonnement-push';
    const subscriptionOf = (endpoint: string, keys: { p256dh: string; auth: string }, key: ArrayBuffer | null) =>
      ({
        endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: key },
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
        unsubscribe: () => {
          localStorage.removeItem(KEPT);
          seen.unsubscribed += 1;
          return Promise.resolve(true);
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.getSubscription = () => {
      const kept = localStorage.getItem(KEPT);
      if (kept === null) return Promise.resolve(null);
      const { endpoint, keys, key } = JSON.parse(kept) as {
        endpoint: string;
        keys: { p256dh: string; auth: string };
        key: number[];
      };
      return Promise.resolve(subscriptionOf(endpoint, keys, Uint8Array.from(key).buffer));
    };
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const endpoint = `https://fcm.googleapis.com/fcm/send/${base64Url(random(32))}`;
      // A point of the curve, as the browser's own key is: the server refuses 65 random bytes.
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
      const point = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
      const keys = { p256dh: base64Url(point), auth: base64Url(random(16)) };
      const given = options?.applicationServerKey;
      const key = given instanceof Uint8Array ? [...(given as Uint8Array)] : [];
      localStorage.setItem(KEPT, JSON.stringify({ endpoint, keys, key }));
      seen.subscribed += 1;
      return subscriptionOf(endpoint, keys, Uint8Array.from(key).buffer);
    };
  });
}
