import type { Page, Request } from '@playwright/test';
import { expectNoViolations } from '../axe';
import { expect, gotoPage, test } from '../fixtures';
import { fakePushService } from '../fake-push';

// « Me prévenir » (docs/follow.md, « Me prévenir »): the button beside « Suivre » and in « Mes
// résidences », the permission asked on the press only, the two choices, what the server is told,
// the sentences where the browser cannot; then the service worker's push and click handlers,
// reached through the DevTools protocol. The browser's push service is a stand-in (Chromium here
// reaches none: fake-push.ts); the server is the site's own, which keeps the subscription.

const PUSH_PATH = '/api/push/subscription';
const ENDPOINT = /^https:\/\/fcm\.googleapis\.com\/fcm\/send\/[A-Za-z0-9_-]+$/;

/** How many bytes a base64url text holds; -1 for anything else. */
const bytesOf = (text: unknown) =>
  typeof text === 'string' && /^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, 'base64url').length : -1;

/** The next write of the page to the push subscription, as the server gets it. */
function nextWrite(page: Page, method: 'PUT' | 'DELETE'): Promise<Request> {
  return page.waitForRequest((request) => new URL(request.url()).pathname === PUSH_PATH && request.method() === method);
}

/** What the stand-in push service saw: permissions asked, subscriptions made and ended. */
const seen = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { pushSeen: { asked: number; subscribed: number; unsubscribed: number } }).pushSeen,
  );

test.use({ reducedMotion: 'reduce', serviceWorkers: 'allow' });

test('« Me prévenir »: asked on the press only, then the two choices, the whole choice sent, DELETE when none is left', async ({
  page,
  context,
}) => {
  await fakePushService(page);
  await gotoPage(page, '/residences/axonberg');
  const button = page.getByRole('button', { name: 'Me prévenir' });
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  // Nothing asked on arrival.
  expect((await seen(page)).asked).toBe(0);

  // The browser of the test answers no question unprompted: refused, or left unanswered.
  await button.click();
  await expect(
    page.getByText(
      /^(Les notifications de ce site sont bloquées dans votre navigateur|Votre navigateur n’a pas eu votre accord)/,
    ),
  ).toBeVisible();
  expect(await seen(page)).toEqual({ asked: 1, subscribed: 0, unsubscribed: 0 });

  await context.grantPermissions(['notifications']);
  const put = nextWrite(page, 'PUT');
  await button.click();
  const body = (await put).postDataJSON() as { endpoint: string; keys: Record<string, string>; residences: unknown };
  expect(body.endpoint).toMatch(ENDPOINT);
  expect(bytesOf(body.keys.p256dh)).toBe(65);
  expect(bytesOf(body.keys.auth)).toBe(16);
  expect(body.residences).toEqual([{ id: 'axonberg', live: true, replay: true }]);
  expect((await put).headers()['x-xsrf-token']).toBeTruthy();
  await expect(page.getByText('C’est noté : ce navigateur vous préviendra pour Axonberg.')).toBeVisible();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  // Turned on, it follows the residence.
  await expect(page.getByRole('button', { name: 'Suivre', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const live = page.getByRole('checkbox', { name: 'quand l’émission commence' });
  const replay = page.getByRole('checkbox', { name: 'quand une nouvelle émission est publiée' });
  await expect(live).toBeChecked();
  await expect(replay).toBeChecked();
  await expectNoViolations(page, 'residence page, « Me prévenir » open');

  const second = nextWrite(page, 'PUT');
  await live.uncheck();
  expect((await second).postDataJSON()).toEqual({
    ...body,
    residences: [{ id: 'axonberg', live: false, replay: true }],
  });
  await expect(page.getByText('Choix enregistré pour Axonberg.')).toBeVisible();

  // « Mes résidences »: the same choice, under a name of its own per residence.
  await gotoPage(page, '/mes-residences');
  const list = page.getByRole('list', { name: 'Vos résidences' });
  await expect(list.getByRole('button', { name: 'Me prévenir : Axonberg' })).toHaveAttribute('aria-pressed', 'true');
  const group = list.getByRole('group', { name: 'Me prévenir pour Axonberg' });
  await expect(group.getByRole('checkbox', { name: 'quand l’émission commence' })).not.toBeChecked();
  await expect(group.getByRole('checkbox', { name: 'quand une nouvelle émission est publiée' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Quand elles passent en direct' }).getByRole('button')).toHaveCount(0);
  await expectNoViolations(page, '« Mes résidences », « Me prévenir » open');

  // The last choice off: the server told to forget this browser, the subscription ended.
  const gone = nextWrite(page, 'DELETE');
  // A click, not uncheck(): the box goes with its group once nothing is left.
  await group.getByRole('checkbox', { name: 'quand une nouvelle émission est publiée' }).click();
  const forget = (await gone).postDataJSON() as { endpoint: string; keys: Record<string, string> };
  expect(forget.endpoint).toMatch(ENDPOINT);
  expect(Object.keys(forget.keys)).toEqual(['auth']);
  expect(bytesOf(forget.keys.auth)).toBe(16);
  await expect(list.getByRole('button', { name: 'Me prévenir : Axonberg' })).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await seen(page)).unsubscribed).toBe(1);
  expect(await page.evaluate(() => localStorage.getItem('collectif:prevenir'))).toBeNull();
});

test('where the browser cannot, a sentence says so: notifications refused, no Push API', async ({ page }) => {
  await fakePushService(page);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/push/')) asked.push(request.url());
  });
  await page.addInitScript(() => {
    // As a visitor who blocked the site's notifications before.
    Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
  });
  await gotoPage(page, '/residences/axonberg');
  await page.getByRole('button', { name: 'Me prévenir' }).click();
  await expect(
    page.getByText(
      'Les notifications de ce site sont bloquées dans votre navigateur : autorisez-les dans ses réglages pour ce site, puis appuyez de nouveau sur « Me prévenir ».',
    ),
  ).toBeVisible();
  expect((await seen(page)).asked).toBe(0);

  await page.addInitScript(() => {
    // A browser without the Push API.
    Reflect.deleteProperty(window, 'PushManager');
  });
  await gotoPage(page, '/residences/axonberg');
  await page.getByRole('button', { name: 'Me prévenir' }).click();
  await expect(
    page.getByText(
      'Ce navigateur ne sait pas recevoir les notifications du site : essayez avec un navigateur à jour, comme Firefox, Chrome, Edge ou Safari.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Me prévenir' })).toHaveAttribute('aria-pressed', 'false');
  expect(asked).toEqual([]);
});

test('the service worker shows a push message of the site, none that is malformed, and a click opens its page', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  await page.goto('/');
  // The shell registers the worker once the page is idle; it takes the page over at once.
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 })
    .toBe(true);
  const origin = new URL(page.url()).origin;
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    registrations.push(...updated);
  });
  await cdp.send('ServiceWorker.enable');
  await expect
    .poll(() => registrations.find((entry) => entry.scopeURL === `${origin}/` && !entry.isDeleted))
    .toBeTruthy();
  const registrationId = registrations.find((entry) => entry.scopeURL === `${origin}/`)?.registrationId ?? '';
  const deliver = (data: unknown) =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId,
      data: typeof data === 'string' ? data : JSON.stringify(data),
    });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((note) => ({
        title: note.title,
        body: note.body,
        icon: note.icon,
        tag: note.tag,
        lang: note.lang,
        data: note.data as unknown,
      })),
    );

  // Malformed first: not JSON, another site's address, a `//host`, too long a title, another version.
  const replay = {
    v: 1,
    kind: 'replay',
    title: 'Nouvelle émission : Synapses #11',
    body: 'Axonberg',
    url: '/emissions/axonberg-synapses-11',
    icon: '/assets/images/residences/axonberg-card.webp',
    tag: 'emission-axonberg-synapses-11',
  };
  await deliver('Axonberg est en direct');
  await deliver({ ...replay, url: 'https://ailleurs.example/' });
  await deliver({ ...replay, url: '//ailleurs.example/' });
  await deliver({ ...replay, title: 'a'.repeat(121) });
  await deliver({ ...replay, v: 2 });
  await deliver(replay);
  await expect.poll(shown).toHaveLength(1);
  expect(await shown()).toEqual([
    {
      title: 'Nouvelle émission : Synapses #11',
      body: 'Axonberg',
      icon: `${origin}/assets/images/residences/axonberg-card.webp`,
      tag: 'emission-axonberg-synapses-11',
      lang: 'fr',
      data: { url: '/emissions/axonberg-synapses-11' },
    },
  ]);

  // A click: the page of the site already open is taken to the episode. (A click made up by the
  // test reaches the worker's own listener; its waitUntil refuses an event the browser did not make.)
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await worker.evaluate(async (tag) => {
    // The worker's scope, typed here as the page's (the tests' TypeScript has no worker library).
    const scope = self as unknown as {
      registration: ServiceWorkerRegistration;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
    } & EventTarget;
    const [note] = await scope.registration.getNotifications({ tag });
    if (note === undefined) throw new Error('pas de notification');
    scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: note }));
  }, replay.tag);
  await expect(page).toHaveURL(`${origin}/emissions/axonberg-synapses-11`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Axonberg');
  await expect.poll(shown).toEqual([]);
});
