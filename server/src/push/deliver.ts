import { checkSubscription, extraHostsOf, hostOf } from './endpoint';
import { createGuardedAgent } from './guard';
import type { Resolve } from './guard';
import { checkMessage, type PushMessage, type PushTarget } from './message';
import { createAttempt, semaphore, type Job, type Outcome } from './push-request';

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

interface Origin {
  queue: Job[];
  pausedUntil: number;
  /** Why this origin is given up for this message (it asked for a pause too long), or null. */
  givenUp: string | null;
  /** Pauses asked in a row without a Retry-After (the backoff's exponent). */
  throttles: number;
}

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

  const attempt = createAttempt({ agent, vapidDetails, slots, timeoutMs, now });

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
