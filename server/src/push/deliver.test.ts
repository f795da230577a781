import { randomUUID } from 'node:crypto';
import webPush from 'web-push';
import { createDelivery } from './deliver';
import type { DeliveryOptions } from './deliver';
import { PAYLOAD_MAX, topicOf, type PushMessage, type PushTarget } from './message';
import { retryAfterMs } from './push-request';
import type { Resolve } from './guard';
import { startFakePushService } from './testing/fake-push-service';
import type { FakePushService } from './testing/fake-push-service';

const vapid = { subject: 'mailto:radio@collectif.example', ...webPush.generateVAPIDKeys() };

const message: PushMessage = {
  payload: JSON.stringify({ titre: 'En direct', texte: 'La résidence « Nuits tièdes » est à l’antenne.' }),
  ttl: 3600,
  topic: topicOf('direct', 'nuits-tiedes'),
  urgency: 'high',
};

let fake: FakePushService;
let other: FakePushService;
beforeAll(async () => {
  [fake, other] = await Promise.all([startFakePushService(), startFakePushService()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), other.close()]);
});

/** A delivery to the fakes, quick to back off, whose log lines are kept. */
function delivery(options: Partial<DeliveryOptions> = {}) {
  const lines: string[] = [];
  const gone: string[] = [];
  const made = createDelivery({
    vapid,
    extraHosts: [fake.host, other.host],
    ca: [fake.ca, other.ca].join('\n'),
    backoffMs: 50,
    onGone: (id) => {
      gone.push(id);
    },
    log: {
      warn: (line) => lines.push(line),
      info: (line) => lines.push(line),
    },
    ...options,
  });
  return { ...made, lines, gone };
}

/** A target subscribed at `service`, with a fresh id. */
function target(service: FakePushService, id = randomUUID()): PushTarget {
  return { id, ...service.subscription(id) };
}

const statusesOf = (service: FakePushService, id: string) =>
  service.requests.filter((entry) => entry.id === id).map((entry) => entry.status);

describe('the delivery of a notification', () => {
  it('arrives decrypted, with its TTL, topic and urgency, under a valid VAPID token', async () => {
    const push = delivery();
    const one = target(fake);
    await expect(push.send([one], message)).resolves.toEqual({ sent: 1, gone: [], failed: 0 });
    await push.close();
    expect(fake.received.filter((entry) => entry.id === one.id)).toEqual([
      {
        id: one.id,
        headers: { ttl: 3600, topic: message.topic, urgency: 'high' },
        payload: message.payload,
        subject: 'mailto:radio@collectif.example',
        at: expect.any(Number) as number,
      },
    ]);
    expect(fake.refused).toEqual([]);
    expect(push.lines).toEqual(['Notifications remises : 1, abonnements disparus : 0, non remises : 0.']);
  });

  it('forgets a subscription the push service no longer knows (410, 404)', async () => {
    const push = delivery();
    const [expired, unknown, kept] = [target(fake), target(fake), target(fake)];
    fake.answer(expired.id, { status: 410 });
    fake.forget(unknown.id);
    const report = await push.send([expired, unknown, kept], message);
    await push.close();
    expect(report.sent).toBe(1);
    expect(report.failed).toBe(0);
    expect([...report.gone].sort()).toEqual([expired.id, unknown.id].sort());
    expect([...push.gone].sort()).toEqual([expired.id, unknown.id].sort());
  });

  it('counts a subscription gone even when forgetting it fails, and says so', async () => {
    const push = delivery({ onGone: () => Promise.reject(new Error('stockage indisponible')) });
    const expired = target(fake);
    fake.answer(expired.id, { status: 410 });
    await expect(push.send([expired], message)).resolves.toEqual({ sent: 0, gone: [expired.id], failed: 0 });
    await push.close();
    expect(push.lines.join('\n')).toMatch(/stockage indisponible/);
  });

  it('pauses only the origin that answered 429 with a Retry-After, then delivers there', async () => {
    // One request at a time: the second target of the paused origin waits, the other origin's does not.
    const push = delivery({ concurrency: 1 });
    const [throttled, sameOrigin, elsewhere] = [target(fake), target(fake), target(other)];
    fake.answer(throttled.id, [{ status: 429, retryAfter: 2 }, { status: 201 }]);
    const started = Date.now();
    const report = await push.send([throttled, sameOrigin, elsewhere], message);
    await push.close();
    expect(report).toEqual({ sent: 3, gone: [], failed: 0 });
    const at = (service: FakePushService, id: string) =>
      (service.received.find((entry) => entry.id === id)?.at ?? NaN) - started;
    expect(at(other, elsewhere.id)).toBeLessThan(1000);
    expect(at(fake, sameOrigin.id)).toBeGreaterThanOrEqual(1900);
    expect(at(fake, throttled.id)).toBeGreaterThanOrEqual(1900);
    expect(statusesOf(fake, throttled.id)).toEqual([429, 201]);
    expect(push.lines.join('\n')).toMatch(/127\.0\.0\.1:\d+ en pause 2 s/);
  });

  it('gives up an origin that asks for a pause longer than the longest waited, and only that one', async () => {
    const push = delivery({ maxWaitMs: 1000, concurrency: 1 });
    const [throttled, sameOrigin, elsewhere] = [target(fake), target(fake), target(other)];
    fake.answer(throttled.id, { status: 429, retryAfter: 3600 });
    const started = Date.now();
    const report = await push.send([throttled, sameOrigin, elsewhere], message);
    await push.close();
    expect(report).toEqual({ sent: 1, gone: [], failed: 2 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(statusesOf(fake, throttled.id)).toEqual([429]);
    expect(statusesOf(fake, sameOrigin.id)).toEqual([]);
    expect(statusesOf(other, elsewhere.id)).toEqual([201]);
  });

  it('fails a pause past the message’s TTL instead of delivering a stale notification', async () => {
    const push = delivery();
    const throttled = target(fake);
    fake.answer(throttled.id, { status: 503, retryAfter: 120 });
    await expect(push.send([throttled], { ...message, ttl: 60 })).resolves.toMatchObject({ failed: 1 });
    await push.close();
  });

  it('backs off without a Retry-After, and tries a 503 again', async () => {
    const push = delivery();
    const [throttled, unavailable] = [target(fake), target(other)];
    fake.answer(throttled.id, [{ status: 429 }, { status: 201 }]);
    other.answer(unavailable.id, [{ status: 503 }, { status: 202 }]);
    await expect(push.send([throttled, unavailable], message)).resolves.toEqual({ sent: 2, gone: [], failed: 0 });
    await push.close();
    expect(statusesOf(fake, throttled.id)).toEqual([429, 201]);
    expect(statusesOf(other, unavailable.id)).toEqual([503, 202]);
  });

  it('tries a 500 again, then delivers', async () => {
    const push = delivery();
    const flaky = target(fake);
    fake.answer(flaky.id, [{ status: 500 }, { status: 502 }, { status: 201 }]);
    await expect(push.send([flaky], message)).resolves.toEqual({ sent: 1, gone: [], failed: 0 });
    await push.close();
    expect(statusesOf(fake, flaky.id)).toEqual([500, 502, 201]);
    expect(fake.received.filter((entry) => entry.id === flaky.id)).toHaveLength(1);
  });

  it('gives up after its attempts', async () => {
    const push = delivery({ attempts: 3 });
    const broken = target(fake);
    fake.answer(broken.id, { status: 500 });
    await expect(push.send([broken], message)).resolves.toEqual({ sent: 0, gone: [], failed: 1 });
    await push.close();
    expect(statusesOf(fake, broken.id)).toEqual([500, 500, 500]);
    expect(push.lines.join('\n')).toMatch(/3 essais \(500\)/);
  });

  it('says a push service that fails many subscriptions in one line, with their count', async () => {
    const push = delivery({ attempts: 1 });
    const many = Array.from({ length: 40 }, () => target(fake));
    for (const one of many) fake.answer(one.id, { status: 500 });
    await expect(push.send(many, message)).resolves.toEqual({ sent: 0, gone: [], failed: 40 });
    await push.close();
    const failures = push.lines.filter((line) => line.startsWith('Notification non remise'));
    expect(failures).toEqual([`Notification non remise (${fake.host}) : 1 essai (500) (40 abonnements).`]);
  });

  it.each([400, 401, 403, 413])('fails a %i at once, without trying again', async (status) => {
    const push = delivery();
    const refused = target(fake);
    fake.answer(refused.id, { status });
    await expect(push.send([refused], message)).resolves.toEqual({ sent: 0, gone: [], failed: 1 });
    await push.close();
    expect(statusesOf(fake, refused.id)).toEqual([status]);
  });

  it('fails a push service too slow to answer, at its deadline', async () => {
    const push = delivery({ timeoutMs: 300, attempts: 2 });
    const slow = target(fake);
    fake.answer(slow.id, { status: 201, delayMs: 3000 });
    const started = Date.now();
    await expect(push.send([slow], message)).resolves.toEqual({ sent: 0, gone: [], failed: 1 });
    expect(Date.now() - started).toBeLessThan(2500);
    await push.close();
    expect(push.lines.join('\n')).toMatch(/délai dépassé/);
  });

  it('never has more requests in flight than its concurrency', async () => {
    const service = await startFakePushService();
    try {
      const targets = Array.from({ length: 24 }, () => target(service));
      for (const one of targets) service.answer(one.id, { status: 201, delayMs: 40 });
      const extraHosts = [service.host];
      const bounded = createDelivery({ vapid, extraHosts, ca: service.ca, concurrency: 4 });
      await expect(bounded.send(targets, message)).resolves.toEqual({ sent: 24, gone: [], failed: 0 });
      await bounded.close();
      expect(service.maxInFlight).toBeLessThanOrEqual(4);
      expect(service.maxInFlight).toBeGreaterThanOrEqual(2);
    } finally {
      await service.close();
    }
  });

  it('keeps its concurrency over two sends at once', async () => {
    const service = await startFakePushService();
    const push = createDelivery({ vapid, extraHosts: [service.host], ca: service.ca, concurrency: 3 });
    try {
      const batch = () =>
        Array.from({ length: 9 }, () => {
          const one = target(service);
          service.answer(one.id, { status: 201, delayMs: 40 });
          return one;
        });
      const reports = await Promise.all([push.send(batch(), message), push.send(batch(), message)]);
      expect(reports.map((report) => report.sent)).toEqual([9, 9]);
      expect(service.maxInFlight).toBeLessThanOrEqual(3);
    } finally {
      await push.close();
      await service.close();
    }
  });

  it('delivers to 200 subscriptions', async () => {
    const push = delivery();
    const targets = Array.from({ length: 200 }, () => target(other));
    await expect(push.send(targets, message)).resolves.toEqual({ sent: 200, gone: [], failed: 0 });
    await push.close();
    const delivered = new Set(other.received.map((entry) => entry.id));
    expect(targets.every((one) => delivered.has(one.id))).toBe(true);
    expect(other.received.every((entry) => entry.payload === message.payload)).toBe(true);
    expect(other.maxInFlight).toBeLessThanOrEqual(16);
  });

  it('fails a target whose name resolves to the machine’s network, logging its host and not its path', async () => {
    const resolve: Resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const push = delivery({ resolve });
    const keys = fake.subscription('rebinding').keys;
    const rebinding = { id: 'r', endpoint: 'https://fcm.googleapis.com/fcm/send/secret-token', keys };
    await expect(push.send([rebinding], message)).resolves.toEqual({ sent: 0, gone: [], failed: 1 });
    await push.close();
    const log = push.lines.join('\n');
    expect(log).toMatch(/fcm\.googleapis\.com/);
    expect(log).toMatch(/adresse non publique refusée/);
    expect(log).not.toMatch(/secret-token/);
  });

  it('fails a target the endpoint rules refuse (a host not listed), without a request', async () => {
    const push = createDelivery({ vapid, extraHosts: [], ca: fake.ca, log: { warn: () => undefined } });
    const unlisted = target(fake);
    await expect(push.send([unlisted], message)).resolves.toEqual({ sent: 0, gone: [], failed: 1 });
    await push.close();
    expect(statusesOf(fake, unlisted.id)).toEqual([]);
  });

  it('refuses a message it must never send: a bad topic, a payload too long, a bad TTL', async () => {
    const push = delivery();
    const one = target(fake);
    await expect(push.send([one], { ...message, topic: 'pas un sujet !' })).rejects.toThrow(/Sujet/);
    await expect(push.send([one], { ...message, topic: 'a'.repeat(33) })).rejects.toThrow(/Sujet/);
    await expect(push.send([one], { ...message, payload: 'é'.repeat(PAYLOAD_MAX / 2 + 1) })).rejects.toThrow(
      /trop longue/,
    );
    await expect(push.send([one], { ...message, ttl: -1 })).rejects.toThrow(/Durée de vie/);
    await push.close();
    expect(statusesOf(fake, one.id)).toEqual([]);
  });

  it('gives up what waits when closed', async () => {
    const push = delivery();
    const throttled = target(fake);
    fake.answer(throttled.id, { status: 429, retryAfter: 60 });
    const sending = push.send([throttled], message);
    await fake.answered(throttled.id, 1);
    await push.close();
    await expect(sending).resolves.toEqual({ sent: 0, gone: [], failed: 1 });
  });
});

describe('a topic', () => {
  it('is 32 characters of base64url, the same for the same kind and residence', () => {
    expect(topicOf('direct', 'nuits-tiedes')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(topicOf('direct', 'nuits-tiedes')).toBe(topicOf('direct', 'nuits-tiedes'));
    expect(topicOf('replay', 'nuits-tiedes')).not.toBe(topicOf('direct', 'nuits-tiedes'));
    expect(topicOf('direct', 'x')).not.toBe(topicOf('direct', 'y'));
  });
});

describe('a Retry-After', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-27T20:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Fri, 27 Nov 2026 20:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 19:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('bientôt', now)).toBeNull();
    expect(retryAfterMs('-3', now)).toBeNull();
  });
});
