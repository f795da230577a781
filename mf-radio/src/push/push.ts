import { callApi } from '@collectif/shared/call';
import { follow, followedIds } from '@collectif/shared/follow';
import { keptChoices, pushChoices, setPushChoices, type PushChoice } from '@collectif/shared/follow/prevenir';
import { followStorage } from '@collectif/shared/follow/stored';
import { followProblem } from '../follow/toggle';
import { PUSH_TEXT, pushSupport } from './support';

/*
 * « Me prévenir » (docs/follow.md, « Me prévenir »): the browser's push subscription, and the server
 * told the whole choice at each change (PUT /api/push/subscription), or that none is left (DELETE),
 * and the subscription renewed about once a month on a visit (`renewIfDue`). The permission is asked
 * here only, on the visitor's press. Where the browser cannot, one sentence says so and what to do
 * (`./support`). In the « prevenir » chunk, loaded once the page is shown.
 */

/** When this browser last saved or renewed its subscription on the server (ms), in local storage. */
export const RENEWED_KEY = 'collectif:prevenir-renouvele';
/** About once a month: well within the server's PUSH_SUBSCRIPTION_DAYS (docs/push.md, « Renewal »). */
export const RENEW_EVERY_MS = 30 * 24 * 3600_000;

/** Remembers when the server last saved the subscription (`null`: none is kept). */
function remember(at: number | null): void {
  const store = followStorage();
  try {
    if (at === null) store?.removeItem(RENEWED_KEY);
    else store?.setItem(RENEWED_KEY, String(at));
  } catch {
    // Storage refused: renewed again at the next visit.
  }
}

/** A base64url text as bytes; null for anything else. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(
      text
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(text.length / 4) * 4, '='),
    );
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The server's public key (an uncompressed P-256 point, 65 bytes starting with 4), or its refusal's words. */
async function serverKey(): Promise<Uint8Array<ArrayBuffer> | string> {
  const answer = await callApi('GET', '/push/key');
  if (!answer.ok) return answer.message;
  const text = (answer.data as { publicKey?: unknown } | null)?.publicKey;
  const key = typeof text === 'string' ? base64UrlBytes(text) : null;
  return key !== null && key.length === 65 && key[0] === 4 ? key : PUSH_TEXT.badKey;
}

const sameBytes = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  a !== null && a !== undefined && a.byteLength === b.length && new Uint8Array(a).every((byte, at) => byte === b[at]);

/** The site's worker registration (the shell registers it once the page is idle; here at once if not yet). */
async function siteRegistration(): Promise<ServiceWorkerRegistration | null> {
  try {
    const registration = await navigator.serviceWorker.getRegistration('/');
    if (registration === undefined) await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    return await navigator.serviceWorker.ready;
  } catch {
    return null;
  }
}

/** This browser's subscription, made with the server's key (again, if the key changed). */
async function subscription(registration: ServiceWorkerRegistration): Promise<PushSubscription | string> {
  const key = await serverKey();
  if (typeof key === 'string') return key;
  try {
    const kept = await registration.pushManager.getSubscription();
    if (kept !== null && sameBytes(kept.options.applicationServerKey, key)) return kept;
    await kept?.unsubscribe();
    return await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch {
    return PUSH_TEXT.unreachable;
  }
}

/** Asks for the permission, on the press only; a sentence when it is not given. */
async function permission(): Promise<string | null> {
  if (Notification.permission === 'granted') return null;
  if (Notification.permission === 'denied') return PUSH_TEXT.denied;
  let answer: NotificationPermission;
  try {
    answer = await Notification.requestPermission();
  } catch {
    answer = Notification.permission;
  }
  return answer === 'granted' ? null : answer === 'denied' ? PUSH_TEXT.denied : PUSH_TEXT.dismissed;
}

/** Turns « Me prévenir » off in this browser: the server told (DELETE), the subscription ended. */
async function stopAll(): Promise<string | null> {
  const registration = pushSupport() === 'ok' ? await navigator.serviceWorker.getRegistration('/') : undefined;
  const kept = await registration?.pushManager.getSubscription().catch(() => null);
  if (kept !== null && kept !== undefined) {
    // Whatever the server answers: once unsubscribed, the push service tells it the address is gone.
    await callApi('DELETE', '/push/subscription', {
      endpoint: kept.endpoint,
      keys: { auth: kept.toJSON().keys?.auth },
    });
    await kept.unsubscribe().catch(() => false);
  }
  remember(null);
  return setPushChoices([]) ? null : PUSH_TEXT.refused;
}

/** Tells the server the whole choice `next`, subscribing first; keeps what the server kept. */
async function send(next: readonly PushChoice[]): Promise<string | null> {
  const support = pushSupport();
  if (support === 'home-screen') return PUSH_TEXT.homeScreen;
  if (support === 'unsupported') return PUSH_TEXT.unsupported;
  const refused = await permission();
  if (refused !== null) return refused;
  const registration = await siteRegistration();
  if (registration === null) return PUSH_TEXT.noWorker;
  const subscribed = await subscription(registration);
  if (typeof subscribed === 'string') return subscribed;
  const { endpoint, keys } = subscribed.toJSON();
  const answer = await callApi('PUT', '/push/subscription', {
    endpoint,
    keys: { p256dh: keys?.p256dh, auth: keys?.auth },
    residences: next,
  });
  if (!answer.ok) return answer.message;
  remember(Date.now());
  const kept = (answer.data as { residences?: unknown } | null)?.residences;
  return setPushChoices(Array.isArray(kept) ? keptChoices(kept) : next) ? null : PUSH_TEXT.refused;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Sets one residence's choice (`null`: off for it), follows it when turned on, and tells the server
 * the whole choice; null once done, otherwise the sentence to show. One change at a time.
 */
export function choose(id: string, wanted: { live: boolean; replay: boolean } | null): Promise<string | null> {
  const run = async (): Promise<string | null> => {
    const on = wanted !== null && (wanted.live || wanted.replay);
    if (on) {
      const problem = followProblem(follow(id));
      if (problem !== null) return problem;
    }
    const others = pushChoices().filter((choice) => choice.id !== id);
    const next = on ? [...others, { id, ...wanted }] : others;
    if (next.length === 0) return stopAll();
    // Turned off for a residence absent from the choice: nothing to tell.
    if (!on && others.length === pushChoices().length) return null;
    return send(next);
  };
  const result = queue.then(run, run);
  queue = result.catch(() => null);
  return result;
}

let renewing: Promise<void> | null = null;

/**
 * On a visit that shows « Me prévenir », renews this browser's subscription on the server when a
 * month has passed since it was last saved (docs/push.md, « Renewal »), asking nothing of the
 * visitor: only with a choice kept, the permission already given and a subscription. When the
 * server no longer keeps it (past its time, or forgotten), the whole choice is saved again. The
 * worker renews it too, when a push arrives (shell/src/offline/renew.ts). One at a time.
 */
export function renewIfDue(): Promise<void> {
  if (renewing !== null) return renewing;
  const run = async (): Promise<void> => {
    const choices = pushChoices();
    if (choices.length === 0 || pushSupport() !== 'ok' || Notification.permission !== 'granted') return;
    const now = Date.now();
    const last = Number(followStorage()?.getItem(RENEWED_KEY) ?? Number.NaN);
    if (last > 0 && last <= now && now - last < RENEW_EVERY_MS) return;
    const registration = await navigator.serviceWorker.getRegistration('/').catch(() => undefined);
    const kept = await registration?.pushManager.getSubscription().catch(() => null);
    const { endpoint, keys } = kept?.toJSON() ?? {};
    if (endpoint === undefined || keys?.auth === undefined) return;
    const answer = await callApi('POST', '/push/subscription/renew', { endpoint, keys: { auth: keys.auth } });
    if (answer.ok) remember(now);
    else if (answer.code === 'not_kept') await send(choices);
  };
  const result = queue.then(run, run);
  queue = result.catch(() => null);
  renewing = result
    .catch(() => undefined)
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

let pruning = false;

/** Turns « Me prévenir » off for the residences no longer followed (a card's « Suivre », another tab). */
export async function pruneUnfollowed(): Promise<void> {
  if (pruning) return;
  pruning = true;
  try {
    for (const { id } of pushChoices()) if (!followedIds().includes(id)) await choose(id, null);
  } finally {
    pruning = false;
  }
}
