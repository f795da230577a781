import type { Page, Request } from '@playwright/test';

// « Me prévenir » in the browser tests (docs/follow.md, « Me prévenir »): what the test's Chromium
// cannot reach, stood in for.
// - The browser's push service: Chromium here reaches none, so `PushManager`'s subscribe and
//   getSubscription answer with a subscription of the right form (an FCM endpoint, a 65-byte
//   uncompressed P-256 point and a 16-byte secret, base64url), kept in the page's storage as a
//   browser keeps its own.
// - STUB_PUSH_SERVER: the site's /api/push routes, answered as their contract says while the server's
//   side is being written. Remove it, and `stubPushServer`'s callers, once the server has them.

/** Replaces the browser's push service in every page of `page`'s context (before any script of the site). */
export async function fakePushService(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const random = (length: number, first?: number) => {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      if (first !== undefined) bytes[0] = first;
      return bytes;
    };
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
    PushManager.prototype.subscribe = (options?: PushSubscriptionOptionsInit) => {
      const endpoint = `https://fcm.googleapis.com/fcm/send/${base64Url(random(32))}`;
      const keys = { p256dh: base64Url(random(65, 4)), auth: base64Url(random(16)) };
      const given = options?.applicationServerKey;
      const key = given instanceof Uint8Array ? [...(given as Uint8Array)] : [];
      localStorage.setItem(KEPT, JSON.stringify({ endpoint, keys, key }));
      seen.subscribed += 1;
      return Promise.resolve(subscriptionOf(endpoint, keys, Uint8Array.from(key).buffer));
    };
  });
}

/** A valid public key for the stub: an uncompressed P-256 point's form (65 bytes, the first 4). */
const PUBLIC_KEY = Buffer.from([4, ...Array.from({ length: 64 }, (_, at) => (at * 37 + 11) % 256)]).toString(
  'base64url',
);

/**
 * STUB_PUSH_SERVER: /api/push/key and /api/push/subscription as the contract says (200 with the key;
 * PUT answers the residences it was sent; DELETE 204). Remove once the server has its routes.
 */
export async function stubPushServer(page: Page): Promise<void> {
  await page.route('**/api/push/key', (route) => route.fulfill({ json: { publicKey: PUBLIC_KEY } }));
  await page.route('**/api/push/subscription', async (route) => {
    const request = route.request();
    if (request.method() === 'DELETE') return route.fulfill({ status: 204 });
    const body = request.postDataJSON() as { residences?: unknown };
    return route.fulfill({ json: { residences: body.residences } });
  });
}

/** A request the page made to the push routes, as the server got it: its method and JSON body. */
export function pushRequest(request: Request): { method: string; body: unknown } {
  return { method: request.method(), body: request.postDataJSON() as unknown };
}
