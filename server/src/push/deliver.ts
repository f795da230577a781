import { createHash } from 'node:crypto';
import { request } from 'undici';
import webPush from 'web-push';
import { checkSubscription, extraHostsOf, hostOf } from './endpoint';
import { createGuardedAgent, isRefusedAddress } from './guard';
import type { Resolve } from './guard';

/**
 * The delivery of « Me prévenir »'s notifications (docs/push.md): one message,
 * encrypted for each subscription (RFC 8291, aes128gcm) and signed for its push service (VAPID,
 * RFC 8292) by `web-push`, then POSTed by this module itself with undici through the address guard
 * (./guard.ts), so that the guard and the deadlines apply to every connection.
 *
 * - 200, 201, 202: sent. 404, 410: the subscription is gone (`onGone`, then `gone`): the push
 *   service forgot it, keeping it would cost a request at every message.
 * - 429, and 503 with a Retry-After: the push service asks the site to slow down, and it asks it
 *   of its whole origin: that origin pauses until the time said (seconds or an HTTP date; without
 *   one, 1 s, 2 s, 4 s… at most a minute), the other origins go on, then the target is attempted again.
 *   A pause longer than `maxWaitMs`, or past the message's TTL, is not waited: that target and the
 *   origin's others fail, without a request more.
 * - Another 5xx, a network error or a deadline: attempted again after 1 s, 2 s, 4 s… (at most a
 *   minute, and never past the message's TTL). Every try counts, after a pause too: `attempts` in
 *   all. Any other answer (400, 401, 403, 413…) says the request itself is wrong: failed at once.
 * - A subscription refused by the endpoint's rules (./endpoint.ts, the extra list may have changed
 *   since it was kept) or whose connection the guard refuses: failed, not attempted again.
 *
 * `send` never throws for one target: a target ends sent, gone or failed, and the report counts
 * them. It throws only for a wrong message (a programming error: topic, size, TTL, urgency). The
 * log lines name a push service by its host only: an endpoint's path is its subscription's secret.
 */

export interface PushTarget {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushMessage {
  /** The text shown by the service worker (JSON, usually): at most PAYLOAD_MAX bytes in UTF-8. */
  payload: string;
  /** Seconds the push service keeps the message for an absent browser (RFC 8030 §5.2). */
  ttl: number;
  /** Replaces an undelivered message of the same topic (RFC 8030 §5.4): see `topicOf`. */
  topic: string;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}

export interface DeliveryReport {
  sent: number;
  /** The targets whose subscription the push service no longer knows (404, 410). */
  gone: string[];
  failed: number;
}

export interface DeliveryLog {
  warn(message: string): void;
  info?(message: string): void;
}

export interface DeliveryOptions {
  vapid: { subject: string; publicKey: string; privateKey: string };
  /** The settings' extra push services (`host` or `host:port`), vouched for by the admin. */
  extraHosts: readonly string[];
  /** Requests in flight at most, over every `send` at once (default 16). */
  concurrency?: number;
  /** Attempts of one target at most (default 3). */
  attempts?: number;
  /** The deadline of one request: connection, answer and body (default 10 s). */
  timeoutMs?: number;
  /** The longest pause a push service may ask for (Retry-After) that is waited (default 10 min). */
  maxWaitMs?: number;
  /** The first backoff (default 1 s), doubled at each retry up to `maxBackoffMs` (default 60 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  onGone?: (id: string) => void | Promise<void>;
  log?: DeliveryLog;
  /** The DNS resolver of the address guard (tests). */
  resolve?: Resolve;
  /** An extra certificate authority to trust (the fake push service's, in tests). */
  ca?: string | Buffer;
  /** The clock (tests); timers are the platform's. */
  now?: () => number;
}

export interface Delivery {
  send(targets: readonly PushTarget[], message: PushMessage): Promise<DeliveryReport>;
  /** Gives up what is waiting (failed), then closes the connections. */
  close(): Promise<void>;
}

/** The largest payload before encryption: web push bodies are 4,096 bytes at most once encrypted. */
export const PAYLOAD_MAX = 3000;

/** The longest TTL taken: 28 days, more than any push service keeps a message. */
export const TTL_MAX = 28 * 24 * 60 * 60;

const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);

/**
 * A topic for a kind of message and a residence: 32 characters of base64url (RFC 8030 §5.4's
 * limit) from a hash of both, so that a newer message of the same kind for the same residence
 * replaces one the browser has not fetched yet, and the residence's id is not shown to the push
 * service.
 */
export function topicOf(kind: string, id: string): string {
  return createHash('sha256').update(kind).update('\0').update(id).digest('base64url').slice(0, 32);
}

/** Throws on a message the caller should never have made. */
function checkMessage(message: PushMessage): void {
  if (!TOPIC.test(message.topic))
    throw new Error('Sujet de notification invalide : 1 à 32 caractères de base64url (RFC 8030 §5.4).');
  if (Buffer.byteLength(message.payload, 'utf8') > PAYLOAD_MAX)
    throw new Error(`Notification trop longue : ${PAYLOAD_MAX} octets au plus avant chiffrement.`);
  if (!Number.isInteger(message.ttl) || message.ttl < 0 || message.ttl > TTL_MAX)
    throw new Error(`Durée de vie de notification invalide : un entier de 0 à ${TTL_MAX} secondes.`);
  if (!URGENCIES.has(message.urgency)) throw new Error('Urgence de notification invalide.');
}

/** The wait a Retry-After asks for, in milliseconds, or null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, nowMs: number): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date (RFC 9110 §5.6.7) is always in GMT: what says otherwise is not one.
  const date = /GMT$/.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

const TIMEOUTS = new Set([
  'TimeoutError',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * A network error said by its code or name, never its message (which may quote the address).
 * Read by duck typing: errors made by Node's internals are not `instanceof` the Error of a test's
 * realm.
 */
function networkReason(error: unknown): string {
  const { code, name } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
  };
  const said = typeof code === 'string' ? code : typeof name === 'string' ? name : 'erreur';
  return TIMEOUTS.has(said) || (typeof name === 'string' && TIMEOUTS.has(name)) ? 'délai dépassé' : said;
}

/** A slot among `size`, taken in turn. */
function semaphore(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<void> {
      if (free > 0) {
        free -= 1;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    give(): void {
      const next = waiting.shift();
      if (next === undefined) free += 1;
      else next();
    },
  };
}

interface Job {
  target: PushTarget;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  origin: string;
  host: string;
  tries: number;
}

interface Origin {
  queue: Job[];
  pausedUntil: number;
  /** Why this origin is given up for this message (it asked for a pause too long), or null. */
  givenUp: string | null;
  /** Pauses asked in a row without a Retry-After (the backoff's exponent). */
  throttles: number;
}

type Outcome =
  | { kind: 'sent' }
  | { kind: 'gone' }
  | { kind: 'failed'; reason: string }
  | { kind: 'retry'; reason: string }
  | { kind: 'pause'; waitMs: number | null; reason: string };

export function createDelivery(options: DeliveryOptions): Delivery {
  const extra = extraHostsOf(options.extraHosts);
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxWaitMs = options.maxWaitMs ?? 10 * 60_000;
  const backoffMs = options.backoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const now = options.now ?? Date.now;
  const log = options.log ?? { warn: () => undefined };
  const vapidDetails = { ...options.vapid };
  const slots = semaphore(concurrency);
  const agent = createGuardedAgent({
    extra,
    connectTimeoutMs: timeoutMs,
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  /** The sends under way: closing gives up what they wait for. */
  const runs = new Set<() => void>();
  let closed = false;

  const backoff = (exponent: number) => Math.min(maxBackoffMs, backoffMs * 2 ** exponent);

  /** One request for a job: what its answer means. */
  async function attempt(job: Job, message: PushMessage): Promise<Outcome> {
    let details: ReturnType<typeof webPush.generateRequestDetails>;
    try {
      details = webPush.generateRequestDetails({ endpoint: job.endpoint, keys: job.keys }, message.payload, {
        vapidDetails,
        TTL: message.ttl,
        topic: message.topic,
        urgency: message.urgency,
        contentEncoding: 'aes128gcm',
      });
    } catch (error) {
      return {
        kind: 'failed',
        reason: `chiffrement impossible (${error instanceof Error ? error.message : 'erreur'})`,
      };
    }
    // Texts for undici (web-push writes TTL and Content-Length as numbers, whatever its types say);
    // the length is undici's to write, from the body.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers as Record<string, unknown>)) {
      if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    }
    await slots.take();
    try {
      const answer = await request(job.endpoint, {
        method: 'POST',
        dispatcher: agent,
        headers,
        body: details.body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The body is read and dropped (a few bytes of explanation), so that the connection is reused.
      await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const status = answer.statusCode;
      if (status === 200 || status === 201 || status === 202) return { kind: 'sent' };
      if (status === 404 || status === 410) return { kind: 'gone' };
      const waitMs = retryAfterMs(answer.headers['retry-after'], now());
      if (status === 429 || (status === 503 && waitMs !== null)) return { kind: 'pause', waitMs, reason: `${status}` };
      if (status >= 500) return { kind: 'retry', reason: `${status}` };
      return { kind: 'failed', reason: `${status}` };
    } catch (error) {
      if (isRefusedAddress(error)) return { kind: 'failed', reason: 'adresse non publique refusée' };
      return { kind: 'retry', reason: `erreur réseau (${networkReason(error)})` };
    } finally {
      slots.give();
    }
  }

  async function send(targets: readonly PushTarget[], message: PushMessage): Promise<DeliveryReport> {
    checkMessage(message);
    const report: DeliveryReport = { sent: 0, gone: [], failed: 0 };
    if (closed) {
      report.failed = targets.length;
      return report;
    }
    // Past the message's TTL, a notification is not worth sending any more.
    const deadline = now() + message.ttl * 1000;
    const origins = new Map<string, Origin>();
    /** The timers of the backoffs (with their job) and of the pauses (none). */
    const timers = new Map<NodeJS.Timeout, Job | null>();
    let pending = 0;
    let wake: (() => void) | null = null;
    let waiting: Promise<void> | null = null;
    let givenUp = false;

    /** Wakes every worker waiting for a change (a job finished, back in a queue, a pause over). */
    const notify = () => {
      const resolve = wake;
      wake = null;
      waiting = null;
      resolve?.();
    };
    const changed = (): Promise<void> => {
      waiting ??= new Promise<void>((resolve) => {
        wake = resolve;
      });
      return waiting;
    };
    /** After `ms`, puts `job` back in its origin's queue (a backoff), or ends a pause. */
    const later = (ms: number, job: Job | null, then: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        then();
        notify();
      }, ms);
      timers.set(timer, job);
    };

    // Failures are said once per push service and reason when the message is done, with their
    // count: a push service that is down for 10,000 followers is one line, not 10,000.
    const failures = new Map<string, number>();
    const failed = (host: string, reason: string) => {
      report.failed += 1;
      const key = `${host}\n${reason}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    };
    const fail = (job: Job, reason: string) => {
      failed(job.host, reason);
    };
    const finish = () => {
      pending -= 1;
      notify();
    };

    for (const target of targets) {
      const checked = checkSubscription({ endpoint: target.endpoint, keys: target.keys }, extra);
      if (!checked.ok) {
        failed(hostOf(target.endpoint), 'abonnement refusé');
        continue;
      }
      const url = new URL(checked.value.endpoint);
      const job: Job = { target, ...checked.value, origin: url.origin, host: url.host, tries: 0 };
      let origin = origins.get(job.origin);
      if (origin === undefined) {
        origin = { queue: [], pausedUntil: 0, givenUp: null, throttles: 0 };
        origins.set(job.origin, origin);
      }
      origin.queue.push(job);
      pending += 1;
    }
    const order = [...origins.values()];
    let turn = 0;

    /** The next job of an origin that is not paused, the origins taken in turn. */
    const pick = (): Job | undefined => {
      const at = now();
      for (let i = 0; i < order.length; i += 1) {
        const origin = order[(turn + i) % order.length];
        if (origin !== undefined && origin.givenUp === null && origin.pausedUntil <= at && origin.queue.length > 0) {
          turn = (turn + i + 1) % order.length;
          return origin.queue.shift();
        }
      }
      return undefined;
    };

    const settle = async (job: Job, outcome: Outcome): Promise<void> => {
      const origin = origins.get(job.origin);
      if (origin === undefined) return;
      if (outcome.kind === 'sent') {
        origin.throttles = 0;
        report.sent += 1;
      } else if (outcome.kind === 'gone') {
        report.gone.push(job.target.id);
        try {
          await options.onGone?.(job.target.id);
        } catch (error) {
          log.warn(`Abonnement disparu non oublié : ${error instanceof Error ? error.message : String(error)}`);
        }
      } else if (outcome.kind === 'failed') {
        fail(job, `refusée (${outcome.reason})`);
      } else if (givenUp) {
        fail(job, 'envoi arrêté');
      } else if (origin.givenUp !== null) {
        fail(job, origin.givenUp);
      } else if (job.tries >= attempts) {
        fail(job, `${String(attempts)} essai${attempts > 1 ? 's' : ''} (${outcome.reason})`);
      } else if (outcome.kind === 'retry') {
        const waitMs = backoff(job.tries - 1);
        if (now() + waitMs > deadline) fail(job, `durée de vie de la notification dépassée (${outcome.reason})`);
        else {
          later(waitMs, job, () => {
            if (origin.givenUp === null) origin.queue.push(job);
            else {
              fail(job, origin.givenUp);
              finish();
            }
          });
          return;
        }
      } else {
        const waitMs = outcome.waitMs ?? backoff(origin.throttles);
        if (outcome.waitMs === null) origin.throttles += 1;
        if (waitMs > maxWaitMs || now() + waitMs > deadline) {
          // Waiting is refused for the whole origin: its other targets fail now, without a request.
          origin.givenUp = `attente demandée trop longue (${outcome.reason})`;
          fail(job, origin.givenUp);
          for (const queued of origin.queue.splice(0)) {
            fail(queued, origin.givenUp);
            pending -= 1;
          }
        } else {
          const until = now() + waitMs;
          if (until > origin.pausedUntil) {
            origin.pausedUntil = until;
            log.info?.(
              `Service de notifications ${job.host} en pause ${Math.ceil(waitMs / 1000)} s (${outcome.reason}).`,
            );
            // The pause ends with its timer, whatever the clock says (a timer may fire a little early).
            later(waitMs, null, () => {
              if (origin.pausedUntil === until) origin.pausedUntil = 0;
            });
          }
          origin.queue.unshift(job);
          return;
        }
      }
      finish();
    };

    const worker = async (): Promise<void> => {
      while (pending > 0) {
        const job = givenUp ? undefined : pick();
        if (job === undefined) {
          await changed();
          continue;
        }
        job.tries += 1;
        await settle(job, await attempt(job, message));
      }
    };

    /** Closing: what waits in a queue or a backoff fails now; what is in flight ends as it ends. */
    const giveUp = () => {
      givenUp = true;
      const waitingJobs = [...timers.values(), ...order.flatMap((origin) => origin.queue.splice(0))];
      for (const timer of timers.keys()) clearTimeout(timer);
      timers.clear();
      for (const job of waitingJobs) {
        if (job === null) continue;
        fail(job, 'envoi arrêté');
        pending -= 1;
      }
      notify();
    };
    runs.add(giveUp);
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, pending) }, worker));
    } finally {
      runs.delete(giveUp);
      for (const timer of timers.keys()) clearTimeout(timer);
    }
    for (const [key, count] of failures) {
      const [host, reason] = key.split('\n');
      log.warn(
        `Notification non remise (${host ?? ''}) : ${reason ?? ''}${count > 1 ? ` (${String(count)} abonnements)` : ''}.`,
      );
    }
    log.info?.(
      `Notifications remises : ${report.sent}, abonnements disparus : ${report.gone.length}, non remises : ${report.failed}.`,
    );
    return report;
  }

  return {
    send,
    async close() {
      closed = true;
      for (const giveUp of runs) giveUp();
      await agent.close();
    },
  };
}
