import { moveSubscription, RENEW_EVERY_MS, RENEW_PATH, renewIfDue, subscriptionKeys, type Renewal } from './renew';

// The worker's renewal of « Me prévenir »'s subscription (docs/push.md, « Renewal »): about once a
// month, the endpoint and the secret only, to the site's own /api; a move on `pushsubscriptionchange`.

const NOW = Date.UTC(2026, 10, 22, 10);
const DAY = 24 * 3600_000;

const subscription = (endpoint: string, auth: string, p256dh = 'BCle') => ({
  toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
});
const OLD = subscription('https://fcm.googleapis.com/fcm/send/ancien', 'ancien-secret');
const NEW = subscription('https://fcm.googleapis.com/fcm/send/nouveau', 'nouveau-secret', 'BNouvelle');

/** A worker whose server answers `status` (or cannot be reached), and whose memory says `last`. */
function worker(last: number | null, status: number | 'network' = 204) {
  const sent: { path: string; init: RequestInit; body: unknown }[] = [];
  let remembered: number | null = last;
  const renewal: Renewal = {
    fetch: (path, init) => {
      sent.push({ path, init, body: typeof init.body === 'string' ? JSON.parse(init.body) : null });
      if (status === 'network') return Promise.reject(new TypeError('Failed to fetch'));
      return Promise.resolve(new Response(status === 204 ? null : '{}', { status }));
    },
    last: () => Promise.resolve(remembered),
    remember: (at) => {
      remembered = at;
      return Promise.resolve();
    },
    now: () => NOW,
  };
  return { renewal, sent, remembered: () => remembered };
}

describe('the worker’s renewal', () => {
  it('sends the endpoint and the secret alone, to the site’s own /api, without the visitor’s cookies, and remembers it', async () => {
    const { renewal, sent, remembered } = worker(null);
    expect(await renewIfDue(OLD, renewal)).toBe('renewed');
    expect(sent).toEqual([
      {
        path: RENEW_PATH,
        init: expect.objectContaining({ method: 'POST', credentials: 'omit', cache: 'no-store' }) as RequestInit,
        body: { endpoint: 'https://fcm.googleapis.com/fcm/send/ancien', keys: { auth: 'ancien-secret' } },
      },
    ]);
    expect(RENEW_PATH).toBe('/api/push/subscription/renew');
    expect(remembered()).toBe(NOW);
  });

  it('asks at most once every 30 days', async () => {
    const recent = worker(NOW - 29 * DAY);
    expect(await renewIfDue(OLD, recent.renewal)).toBe('not_due');
    expect(recent.sent).toEqual([]);
    const old = worker(NOW - RENEW_EVERY_MS);
    expect(await renewIfDue(OLD, old.renewal)).toBe('renewed');
    expect(old.sent).toHaveLength(1);
    // A date later than now (a clock set back) is no reason to wait.
    const ahead = worker(NOW + 400 * DAY);
    expect(await renewIfDue(OLD, ahead.renewal)).toBe('renewed');
  });

  it('remembers a subscription the server does not keep, and tries a failure again next time', async () => {
    const gone = worker(null, 404);
    expect(await renewIfDue(OLD, gone.renewal)).toBe('not_kept');
    expect(gone.remembered()).toBe(NOW);
    for (const status of [429, 503, 'network'] as const) {
      const failing = worker(null, status);
      expect(await renewIfDue(OLD, failing.renewal)).toBe('failed');
      expect(failing.remembered()).toBeNull();
    }
  });

  it('asks nothing without a subscription, or with one that lacks its keys', async () => {
    const { renewal, sent } = worker(null);
    expect(await renewIfDue(null, renewal)).toBe('none');
    expect(await renewIfDue({ toJSON: () => ({ endpoint: 'https://fcm.googleapis.com/x' }) }, renewal)).toBe('none');
    expect(
      subscriptionKeys({
        toJSON: () => {
          throw new Error('InvalidStateError');
        },
      }),
    ).toBeNull();
    expect(sent).toEqual([]);
  });
});

describe('a subscription the browser replaced', () => {
  it('is moved to the new one: the old endpoint and secret, the new endpoint and keys', async () => {
    const { renewal, sent, remembered } = worker(NOW - DAY);
    expect(await moveSubscription(OLD, NEW, renewal)).toBe('moved');
    expect(sent.map((each) => each.body)).toEqual([
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/nouveau',
        keys: { p256dh: 'BNouvelle', auth: 'nouveau-secret' },
        old: { endpoint: 'https://fcm.googleapis.com/fcm/send/ancien', keys: { auth: 'ancien-secret' } },
      },
    ]);
    expect(remembered()).toBe(NOW);
  });

  it('is not moved without the old one (nothing proves it) nor without a new one', async () => {
    const { renewal, sent } = worker(null);
    expect(await moveSubscription(null, NEW, renewal)).toBe('none');
    expect(await moveSubscription(OLD, null, renewal)).toBe('none');
    expect(sent).toEqual([]);
  });

  it('the same as before is a renewal, when one is due', async () => {
    const { renewal, sent } = worker(NOW - 40 * DAY);
    expect(await moveSubscription(OLD, OLD, renewal)).toBe('renewed');
    expect(sent.map((each) => each.body)).toEqual([
      { endpoint: 'https://fcm.googleapis.com/fcm/send/ancien', keys: { auth: 'ancien-secret' } },
    ]);
  });
});
