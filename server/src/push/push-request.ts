import { request, type Agent } from 'undici';
import webPush from 'web-push';
import { isRefusedAddress } from './guard';
import type { PushMessage, PushTarget } from './message';

// One request to a push service (docs/push.md): the message encrypted and signed for a target, POSTed
// through the address guard, and what its answer means for the delivery (deliver.ts).

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
export function semaphore(size: number) {
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

export interface Job {
  target: PushTarget;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  origin: string;
  host: string;
  tries: number;
}

export type Outcome =
  | { kind: 'sent' }
  | { kind: 'gone' }
  | { kind: 'failed'; reason: string }
  | { kind: 'retry'; reason: string }
  | { kind: 'pause'; waitMs: number | null; reason: string };

export interface AttemptOptions {
  /** The address guard's agent (guard.ts). */
  agent: Agent;
  vapidDetails: { subject: string; publicKey: string; privateKey: string };
  /** The requests in flight, bounded over every send at once. */
  slots: ReturnType<typeof semaphore>;
  /** The deadline of one request: connection, answer and body. */
  timeoutMs: number;
  now: () => number;
}

/** One request for a job: what its answer means. */
export function createAttempt({ agent, vapidDetails, slots, timeoutMs, now }: AttemptOptions) {
  return async function attempt(job: Job, message: PushMessage): Promise<Outcome> {
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
  };
}
