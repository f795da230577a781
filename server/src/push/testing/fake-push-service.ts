import { execFile } from 'node:child_process';
import { createECDH, randomBytes, randomUUID, verify } from 'node:crypto';
import type { ECDH } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decrypt } from 'http_ece';
import { p256PublicKey } from '../endpoint';

/**
 * A push service for the tests (docs/push.md, « The fake push service »): a real
 * HTTPS server on 127.0.0.1, with a self-signed certificate made at start by the `openssl` command
 * (as the timeline's test Icecast does, server/src/timeshift/testing/icecast.ts: no certificate
 * library among the dependencies), that checks each request as a browser vendor's push service
 * does (RFC 8030, RFC 8292, RFC 8291) and decrypts its message with the subscription's private
 * side, so that a test asserts what a browser would show, not what the sender meant to send.
 *
 * A request that fails a check is answered 401 (its VAPID token) or 400 (its encoding, TTL or
 * body), 413 when its body exceeds 4,096 bytes, and kept in `refused` with the reason; an unknown
 * subscription gets 404. A request that passes is answered as the test programmed (`answer`,
 * 201 by default) and, when that answer is a success, kept in `received`.
 */

/** A subscription as a browser gives it (`PushSubscription.toJSON()`). */
export interface FakeSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A message the fake accepted, decrypted. */
export interface FakeDelivery {
  id: string;
  headers: { ttl: number; topic: string | null; urgency: string | null };
  payload: string;
  /** The VAPID token's subject. */
  subject: string;
  /** When the request arrived (Date.now()). */
  at: number;
}

/** A request refused by the fake's checks. */
export interface FakeRefusal {
  id: string;
  status: number;
  reason: string;
  at: number;
}

/** Every request for a subscription, with the status it got. */
export interface FakeRequest {
  id: string;
  status: number;
  at: number;
}

/** An answer programmed for a subscription: a status, a Retry-After, a delay before answering. */
export interface FakeAnswer {
  status: number;
  retryAfter?: number | string;
  delayMs?: number;
}

export interface FakePushService {
  /** `https://127.0.0.1:<port>`: the VAPID audience expected. */
  readonly origin: string;
  /** `127.0.0.1:<port>`: the entry of the extra list that lets the delivery reach the fake. */
  readonly host: string;
  /** The certificate (PEM) to trust. */
  readonly ca: string;
  /** A new subscription (or the one of `id`), its private side kept by the fake. */
  subscription(id?: string): FakeSubscription;
  /** Forgets a subscription: its requests get 404 from now on. */
  forget(id: string): void;
  readonly received: FakeDelivery[];
  readonly refused: FakeRefusal[];
  readonly requests: FakeRequest[];
  /** Settles once `count` requests of subscription `id` have been answered (at once if they have). */
  answered(id: string, count: number): Promise<void>;
  /**
   * Programs the answers of one subscription: one answer for every request, or a sequence, taken
   * one per request, its last one repeated.
   */
  answer(id: string, answer: FakeAnswer | readonly FakeAnswer[]): void;
  /** TCP connections accepted (before TLS: whatever reached the fake's port). */
  readonly connections: number;
  /** Requests being answered now, and the most there ever were at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Writes the certificate to `path` (for a spawned process's NODE_EXTRA_CA_CERTS). */
  writeCa(path: string): Promise<void>;
  close(): Promise<void>;
}

/** The largest body a push service takes (RFC 8030 §7.2: at least 4,096 bytes; the vendors' bound). */
const BODY_MAX = 4096;

/** A self-signed certificate for 127.0.0.1, made by openssl in a directory removed at once. */
async function selfSigned(): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-push-'));
  try {
    const keyFile = join(dir, 'tls.key');
    const certFile = join(dir, 'tls.crt');
    await promisify(execFile)('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile],
    ]);
    return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type VapidCheck = { ok: true; subject: string } | { ok: false; reason: string };

const json = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/**
 * Checks an `Authorization: vapid t=<JWT>, k=<key>` header (RFC 8292) for a push service of
 * `origin`: an ES256 token for this audience, expiring in the future and within 24 hours, whose
 * subject is a `mailto:` or `https:` URL, signed by the key `k` (an uncompressed P-256 point).
 */
export function checkVapid(header: string | undefined, origin: string, nowMs = Date.now()): VapidCheck {
  const parts = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (parts === null) return { ok: false, reason: 'no vapid authorization' };
  const [token = '', k = ''] = parts.slice(1);
  const [head = '', body = '', signature = ''] = token.split('.');
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    const protectedHeader = json(head) as { alg?: unknown; typ?: unknown };
    if (protectedHeader.alg !== 'ES256') return { ok: false, reason: 'jwt alg is not ES256' };
    claims = json(body) as typeof claims;
  } catch {
    return { ok: false, reason: 'jwt unreadable' };
  }
  if (claims.aud !== origin) return { ok: false, reason: 'jwt aud is not this origin' };
  const now = Math.floor(nowMs / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now) return { ok: false, reason: 'jwt expired' };
  if (claims.exp > now + 24 * 60 * 60) return { ok: false, reason: 'jwt exp more than 24 h ahead' };
  let subject: URL | null;
  try {
    subject = typeof claims.sub === 'string' ? new URL(claims.sub) : null;
  } catch {
    subject = null;
  }
  if (subject === null || !['mailto:', 'https:'].includes(subject.protocol))
    return { ok: false, reason: 'jwt sub is not a mailto: or https: URL' };
  const key = p256PublicKey(Buffer.from(k, 'base64url'));
  if (key === null) return { ok: false, reason: 'k is not a P-256 point' };
  try {
    const signed = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    return signed ? { ok: true, subject: subject.href } : { ok: false, reason: 'jwt signature does not verify with k' };
  } catch {
    return { ok: false, reason: 'jwt signature is not an ES256 signature' };
  }
}

/** The body of a request, or null past `max` bytes (the rest read and dropped). */
async function bodyOf(request: IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length <= max) chunks.push(chunk);
  }
  return length > max ? null : Buffer.concat(chunks);
}

const headerOf = (request: IncomingMessage, name: string): string | null => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
};

interface Kept {
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
  p256dh: string;
}

/** What a push service checks of a request for a known subscription: the message, or a refusal. */
function check(
  request: IncomingMessage,
  body: Buffer | null,
  subscription: Kept,
  origin: string,
): { refusal: [number, string] } | { ttl: number; payload: string; subject: string } {
  if (body === null) return { refusal: [413, 'body over 4096 bytes'] };
  const vapid = checkVapid(headerOf(request, 'authorization') ?? undefined, origin);
  if (!vapid.ok) return { refusal: [401, vapid.reason] };
  if (headerOf(request, 'content-encoding') !== 'aes128gcm')
    return { refusal: [400, 'content-encoding is not aes128gcm'] };
  const ttl = headerOf(request, 'ttl');
  if (ttl === null || !/^\d+$/.test(ttl)) return { refusal: [400, 'no TTL'] };
  try {
    const payload = decrypt(body, {
      version: 'aes128gcm',
      privateKey: subscription.ecdh,
      authSecret: subscription.auth,
    }).toString('utf8');
    return { ttl: Number(ttl), payload, subject: vapid.subject };
  } catch (error) {
    return { refusal: [400, `body not decrypted: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

/** Starts a fake push service on 127.0.0.1 (a free port). */
export async function startFakePushService(): Promise<FakePushService> {
  const { key, cert } = await selfSigned();
  const subscriptions = new Map<string, Kept>();
  const answers = new Map<string, FakeAnswer[]>();
  const received: FakeDelivery[] = [];
  const refused: FakeRefusal[] = [];
  const requests: FakeRequest[] = [];
  const waiters: { id: string; count: number; settle: () => void }[] = [];
  const countOf = (id: string) => requests.filter((entry) => entry.id === id).length;
  const wake = () => {
    for (const waiter of [...waiters]) {
      if (countOf(waiter.id) < waiter.count) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.settle();
    }
  };
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;
  let connections = 0;
  let origin = '';

  const nextAnswer = (id: string): FakeAnswer => {
    const programmed = answers.get(id);
    if (programmed === undefined || programmed.length === 0) return { status: 201 };
    return (programmed.length > 1 ? programmed.shift() : programmed[0]) ?? { status: 201 };
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const at = Date.now();
    const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const end = (status: number, headers: Record<string, string> = {}) => {
      requests.push({ id, status, at });
      if (!response.destroyed) response.writeHead(status, headers).end();
      wake();
    };
    const refuse = (status: number, reason: string) => {
      refused.push({ id, status, reason, at });
      end(status);
    };
    const body = await bodyOf(request, BODY_MAX);
    const subscription = subscriptions.get(id);
    if (request.method !== 'POST' || subscription === undefined) {
      end(404);
      return;
    }
    const checked = check(request, body, subscription, origin);
    if ('refusal' in checked) {
      refuse(...checked.refusal);
      return;
    }
    const { ttl, payload, subject } = checked;
    const answer = nextAnswer(id);
    if (answer.delayMs !== undefined) await wait(answer.delayMs);
    if (answer.status >= 200 && answer.status < 300) {
      const headers = { ttl, topic: headerOf(request, 'topic'), urgency: headerOf(request, 'urgency') };
      received.push({ id, headers, payload, subject, at });
    }
    end(answer.status, answer.retryAfter === undefined ? {} : { 'Retry-After': String(answer.retryAfter) });
  }

  const server = createServer({ key, cert }, (request, response) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => {
      inFlight -= 1;
    });
    handle(request, response).catch(() => {
      if (!response.destroyed) response.destroy();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `https://127.0.0.1:${port}`;

  return {
    origin,
    host: `127.0.0.1:${port}`,
    ca: cert,
    subscription(id = randomUUID()) {
      let kept = subscriptions.get(id);
      if (kept === undefined) {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        kept = { ecdh, auth: randomBytes(16), endpoint: `${origin}/push/${id}`, p256dh: '' };
        kept.p256dh = ecdh.getPublicKey().toString('base64url');
        subscriptions.set(id, kept);
      }
      return { endpoint: kept.endpoint, keys: { p256dh: kept.p256dh, auth: kept.auth.toString('base64url') } };
    },
    forget(id) {
      subscriptions.delete(id);
    },
    received,
    refused,
    requests,
    answered: (id, count) =>
      new Promise<void>((settle) => {
        waiters.push({ id, count, settle });
        wake();
      }),
    answer(id, answer) {
      answers.set(id, Array.isArray(answer) ? [...(answer as readonly FakeAnswer[])] : [answer as FakeAnswer]);
    },
    get connections() {
      return connections;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    writeCa: (path) => writeFile(path, cert),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
