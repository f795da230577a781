/*
 * « Me prévenir »'s subscription kept alive by the site's worker (docs/push.md, « Renewal »): the
 * server forgets a subscription its browser has not renewed within PUSH_SUBSCRIPTION_DAYS (180 by
 * default), so the worker renews it about once a month (when a push arrives, when a new worker
 * takes over), and moves it to the new one when the browser replaces it (`pushsubscriptionchange`).
 * The worker knows the subscription, not the choices: it sends the endpoint and the auth secret,
 * which prove it is this browser's; the page saves the choices again when the server no longer has
 * them. Only the site's own /api is asked. What the worker touches is given, so that jest reads this
 * without a worker.
 */

/** The renewal's address, on the site's own origin. */
export const RENEW_PATH = '/api/push/subscription/renew';
/** About once a month: well within the server's PUSH_SUBSCRIPTION_DAYS. */
export const RENEW_EVERY_MS = 30 * 24 * 3600_000;
/** Where the worker remembers when it last renewed (in the offline cache, rules.ts `CACHES.offline`). */
export const RENEWED_KEY = '/hors-ligne/notifications-renouvelees.txt';

/** What the worker is given: its fetch, its memory of the last renewal, the time. */
export interface Renewal {
  fetch: (path: string, init: RequestInit) => Promise<Response>;
  /** When it last renewed (ms); null for never, or a memory it cannot read. */
  last: () => Promise<number | null>;
  remember: (at: number) => Promise<void>;
  now: () => number;
}

/** What the worker reads of a subscription (`PushSubscription` has it). */
export interface SubscriptionLike {
  toJSON: () => PushSubscriptionJSON;
}

/** What the server is told. `renewed`, `moved`: saved now; `not_kept`: the server has none of it. */
export type RenewalOutcome = 'renewed' | 'moved' | 'not_kept' | 'not_due' | 'none' | 'failed';

const text = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** A subscription's endpoint and keys, as its `toJSON` gives them; null when one is missing. */
export function subscriptionKeys(
  subscription: SubscriptionLike | null | undefined,
): { endpoint: string; p256dh: string; auth: string } | null {
  let json: PushSubscriptionJSON;
  try {
    if (subscription === null || subscription === undefined) return null;
    json = subscription.toJSON();
  } catch {
    return null;
  }
  const { endpoint, keys } = json;
  const p256dh = keys?.p256dh;
  const auth = keys?.auth;
  return text(endpoint) && text(p256dh) && text(auth) ? { endpoint, p256dh, auth } : null;
}

/** Posts `body` to the renewal; what the server's answer says. */
async function post(body: unknown, renewal: Renewal, done: 'renewed' | 'moved'): Promise<RenewalOutcome> {
  let answer: Response;
  try {
    answer = await renewal.fetch(RENEW_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      // Nothing of the visitor's: the secret is the proof.
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    // Without network: the next occasion tries again.
    return 'failed';
  }
  if (answer.status === 204) return done;
  // Not kept (past its time, or forgotten): nothing the worker can mend; the page saves the choices again.
  if (answer.status === 404) return 'not_kept';
  return 'failed';
}

/**
 * Renews this browser's subscription when the last renewal is RENEW_EVERY_MS old or more (or never,
 * or said to be later than now: a clock set back). Remembered when the server answered, kept or not;
 * not after a failure, tried again at the next occasion.
 */
export async function renewIfDue(
  subscription: SubscriptionLike | null | undefined,
  renewal: Renewal,
): Promise<RenewalOutcome> {
  const current = subscriptionKeys(subscription);
  if (current === null) return 'none';
  const now = renewal.now();
  const last = await renewal.last().catch(() => null);
  if (last !== null && last <= now && now - last < RENEW_EVERY_MS) return 'not_due';
  const outcome = await post({ endpoint: current.endpoint, keys: { auth: current.auth } }, renewal, 'renewed');
  if (outcome !== 'failed') await renewal.remember(now).catch(() => undefined);
  return outcome;
}

/**
 * Moves the subscription the browser replaced (`old`) to its new one (`next`), with the same choices
 * on the server. Without the old one there is nothing to prove: the page saves the choices again.
 */
export async function moveSubscription(
  old: SubscriptionLike | null | undefined,
  next: SubscriptionLike | null | undefined,
  renewal: Renewal,
): Promise<RenewalOutcome> {
  const before = subscriptionKeys(old);
  const after = subscriptionKeys(next);
  if (before === null || after === null) return 'none';
  if (before.endpoint === after.endpoint && before.auth === after.auth) return renewIfDue(next, renewal);
  const outcome = await post(
    {
      endpoint: after.endpoint,
      keys: { p256dh: after.p256dh, auth: after.auth },
      old: { endpoint: before.endpoint, keys: { auth: before.auth } },
    },
    renewal,
    'moved',
  );
  if (outcome === 'moved') await renewal.remember(renewal.now()).catch(() => undefined);
  return outcome;
}
