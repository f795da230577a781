import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import webPush from 'web-push';
import { checkVapid, startFakePushService } from './fake-push-service';
import type { FakePushService } from './fake-push-service';

const vapid = { subject: 'mailto:radio@collectif.example', ...webPush.generateVAPIDKeys() };

let fake: FakePushService;
let agent: Agent;
beforeAll(async () => {
  fake = await startFakePushService();
  agent = new Agent({ connect: { ca: fake.ca } });
});
afterAll(async () => {
  await agent.close();
  await fake.close();
});

/** What web-push makes for a subscription of the fake, with its headers changed by `change`. */
function made(id: string, change: (headers: Record<string, string>) => void = () => undefined) {
  const details = webPush.generateRequestDetails(fake.subscription(id), 'bonjour', {
    vapidDetails: vapid,
    TTL: 60,
    contentEncoding: 'aes128gcm',
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers as Record<string, unknown>)) {
    if (name !== 'Content-Length') headers[name] = String(value);
  }
  change(headers);
  return { headers, body: details.body };
}

async function post(id: string, change?: (headers: Record<string, string>) => void, body?: Buffer) {
  const details = made(id, change);
  return sent(id, { headers: details.headers, body: body ?? details.body });
}

async function sent(id: string, details: { headers: Record<string, string>; body: Buffer }) {
  const answer = await request(`${fake.origin}/push/${id}`, { method: 'POST', dispatcher: agent, ...details });
  await answer.body.dump();
  return answer.statusCode;
}

describe('the fake push service', () => {
  it('takes what web-push sends, decrypted', async () => {
    await expect(post('bon')).resolves.toBe(201);
    expect(fake.received).toEqual([
      expect.objectContaining({ id: 'bon', payload: 'bonjour', headers: { ttl: 60, topic: null, urgency: 'normal' } }),
    ]);
  });

  it('refuses a token for another audience, signed by another key, or no token; a body it cannot read', async () => {
    const other = webPush.generateVAPIDKeys();
    const elsewhere = webPush.getVapidHeaders(
      'https://ailleurs.example',
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
    );
    await expect(post('aud', (headers) => (headers.Authorization = elsewhere.Authorization))).resolves.toBe(401);
    await expect(
      post('k', (headers) => (headers.Authorization = headers.Authorization!.replace(/k=.*$/, `k=${other.publicKey}`))),
    ).resolves.toBe(401);
    await expect(post('none', (headers) => delete headers.Authorization)).resolves.toBe(401);
    await expect(post('encoding', (headers) => (headers['Content-Encoding'] = 'aesgcm'))).resolves.toBe(400);
    await expect(post('ttl', (headers) => delete headers.TTL)).resolves.toBe(400);
    await expect(post('body', undefined, Buffer.alloc(200, 1))).resolves.toBe(400);
    await expect(post('large', undefined, Buffer.alloc(5000, 1))).resolves.toBe(413);
    expect(fake.refused.map((entry) => [entry.id, entry.status, entry.reason])).toEqual([
      ['aud', 401, 'jwt aud is not this origin'],
      ['k', 401, 'jwt signature does not verify with k'],
      ['none', 401, 'no vapid authorization'],
      ['encoding', 400, 'content-encoding is not aes128gcm'],
      ['ttl', 400, 'no TTL'],
      ['body', 400, expect.stringMatching(/^body not decrypted/) as string],
      ['large', 413, 'body over 4096 bytes'],
    ]);
  });

  it('checks the expiry and the subject of a token', () => {
    const token = (exp: number, sub = vapid.subject) =>
      webPush.getVapidHeaders(fake.origin, sub, vapid.publicKey, vapid.privateKey, 'aes128gcm', exp).Authorization;
    const now = Date.now();
    const inSeconds = (s: number) => Math.floor(now / 1000) + s;
    expect(checkVapid(token(inSeconds(3600)), fake.origin, now)).toEqual({ ok: true, subject: vapid.subject });
    expect(checkVapid(token(inSeconds(3600)), fake.origin, now + 2 * 3600_000)).toEqual({
      ok: false,
      reason: 'jwt expired',
    });
    expect(checkVapid(token(inSeconds(3600)), fake.origin, now - 24 * 3600_000)).toEqual({
      ok: false,
      reason: 'jwt exp more than 24 h ahead',
    });
  });

  it('answers an unknown subscription 404, and as programmed otherwise', async () => {
    const details = made('oublie');
    await expect(sent('oublie', details)).resolves.toBe(201);
    fake.forget('oublie');
    await expect(sent('oublie', details)).resolves.toBe(404);
    fake.answer('programme', [{ status: 429, retryAfter: 7 }, { status: 410 }]);
    await expect(post('programme')).resolves.toBe(429);
    await expect(post('programme')).resolves.toBe(410);
    await expect(post('programme')).resolves.toBe(410);
  });

  it('writes its certificate for another process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-push-ca-'));
    try {
      await fake.writeCa(join(dir, 'ca.pem'));
      await expect(readFile(join(dir, 'ca.pem'), 'utf8')).resolves.toBe(fake.ca);
      expect(fake.ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
