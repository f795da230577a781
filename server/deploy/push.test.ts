import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import {
  startFakePushService,
  type FakePushService,
  type FakeSubscription,
} from '../src/push/testing/fake-push-service';
import { startFakeServer, until, type FakeServer } from '@collectif/shared/testing';
import { startDeployment, type Deployment, type Instance } from './harness';

// « Me prévenir » on two instances behind nginx with Redis (docs/push.md, « Several instances »):
// subscriptions made through nginx, whichever instance takes them; the programme's show that starts
// told by one instance only (the sender's lease), to its followers only, once; the sender stopped,
// the other takes the lease over, looks, and tells nothing again (the marks are in Redis).

const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc', 'content-type': 'application/json' };
const keys = webpush.generateVAPIDKeys();

let push: FakePushService;
let calendar: FakeServer;
let deployment: Deployment;
let dir: string;
// The show's start: late enough for both instances to be up and the subscriptions made.
const start = Date.now() + 30_000;

/** The programme: Axonberg's show, from `start`, for an hour (a calendar as Google serves one). */
function programme(): string {
  const ics = (at: number) =>
    new Date(at)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Programme//FR',
    'BEGIN:VEVENT',
    'UID:axonberg-test@collectif',
    `DTSTAMP:${ics(Date.now())}`,
    `DTSTART:${ics(start)}`,
    `DTEND:${ics(start + 3_600_000)}`,
    'SUMMARY:Axonberg · Synapses',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

beforeAll(async () => {
  push = await startFakePushService();
  calendar = await startFakeServer({});
  calendar.on('/programme.ics', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(programme());
  });
  dir = mkdtempSync(join(tmpdir(), 'prevenir-deploiement-'));
  const ca = join(dir, 'push-ca.pem');
  await push.writeCa(ca);
  deployment = await startDeployment({
    instances: 2,
    env: {
      SCHEDULE_ICS_URLS: `${calendar.origin}/programme.ics`,
      PUSH_VAPID_PUBLIC_KEY: keys.publicKey,
      PUSH_VAPID_PRIVATE_KEY: keys.privateKey,
      PUSH_VAPID_SUBJECT: 'mailto:radio@collectif.example.org',
      PUSH_SERVICES: push.host,
      // The fake push service's certificate, trusted as an admin's own CA would be.
      NODE_EXTRA_CA_CERTS: ca,
    },
  });
}, 90_000);

afterAll(async () => {
  await deployment.close();
  await Promise.all([push.close(), calendar.close()]);
  rmSync(dir, { recursive: true, force: true });
});

async function subscribe(subscription: FakeSubscription, residences: { id: string; live: boolean; replay: boolean }[]) {
  const answer = await fetch(`${deployment.origin}/api/push/subscription`, {
    method: 'PUT',
    headers: XSRF,
    body: JSON.stringify({ ...subscription, residences }),
  });
  expect(answer.status).toBe(200);
}

/** A metric of one instance, read on its own port (the loopback reads /metrics). */
async function metric(instance: Instance, line: RegExp): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${String(instance.port)}/metrics`)).text();
  const match = line.exec(text);
  return match === null ? 0 : Number(match[1]);
}
const SENT = /^collectif_push_notifications_total\{kind="live",outcome="sent"\} (\d+)$/m;
const SENDING = /^collectif_push_sending (\d+)$/m;
const LOOKS = /^collectif_push_looks_total (\d+)$/m;

const idOf = (subscription: FakeSubscription) => subscription.endpoint.split('/').pop() ?? '';

it('tells a show’s start once, from one instance, to its followers only, and not again when the other takes over', async () => {
  const [follower, elsewhere, replayOnly] = [push.subscription(), push.subscription(), push.subscription()];
  await subscribe(follower, [{ id: 'axonberg', live: true, replay: false }]);
  await subscribe(elsewhere, [{ id: 'la-brume', live: true, replay: true }]);
  await subscribe(replayOnly, [{ id: 'axonberg', live: false, replay: true }]);

  await until(() => push.received.length > 0, { what: 'la notification du début', timeoutMs: 75_000, everyMs: 100 });
  expect(push.refused).toEqual([]);
  expect(push.received.map((each) => each.id)).toEqual([idOf(follower)]);
  expect(JSON.parse(push.received[0]?.payload ?? '')).toMatchObject({ kind: 'live', title: 'Axonberg est en direct' });
  expect(push.received[0]?.subject).toBe('mailto:radio@collectif.example.org');

  // One instance sent it, the one that holds the lease.
  const [a, b] = deployment.instances as [Instance, Instance];
  const sent = [await metric(a, SENT), await metric(b, SENT)];
  expect([...sent].sort()).toEqual([0, 1]);
  const sender = sent[0] === 1 ? a : b;
  const other = sender === a ? b : a;
  expect(await metric(sender, SENDING)).toBe(1);
  expect(await metric(other, SENDING)).toBe(0);

  // The sender stops: the other takes the lease over (15 s at most), looks, and tells nothing again.
  await deployment.stop(sender);
  let looks = 0;
  await until(
    async () => {
      looks = await metric(other, LOOKS);
      return (await metric(other, SENDING)) === 1 && looks >= 1;
    },
    { what: 'l’autre instance envoie et a regardé', timeoutMs: 40_000, everyMs: 250 },
  );
  expect(push.received).toHaveLength(1);
  expect(await metric(other, SENT)).toBe(0);
}, 150_000);
