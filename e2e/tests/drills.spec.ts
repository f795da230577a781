import type { Page, Route } from '@playwright/test';
import { audioState, audioTime, expectSameAudioPlaying, expectTimeAdvancing, markAudio } from '../audio';
import { expect, gotoPage, test } from '../fixtures';
import { scrollThrough } from '../screen';

/**
 * Failure drills: parts of the site, the API, third parties and the live stream fail on purpose,
 * and the site has to keep working and say so in French. The fixtures already block every
 * third-party host and fail a test on any uncaught page error.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Navigation principale' });
const content = (page: Page) => page.locator('#contenu');
const playerRegion = (page: Page) => page.getByRole('region', { name: 'Lecteur radio' });
const footer = (page: Page) => page.getByRole('contentinfo');

/** Opens the player on the live stream and waits for sound. */
async function playLive(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Ouvrir le lecteur' }).click();
  await expect(playerRegion(page).getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expectTimeAdvancing(page);
}

/** The navbar and the footer are the shell's own: they must survive any other failure. */
async function expectShellWorks(page: Page): Promise<void> {
  for (const name of ['Résidences', 'Label', 'À propos']) {
    await expect(nav(page).getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(footer(page)).toContainText('Collectif Garonne');
  await expect(footer(page).getByRole('link', { name: 'Nous contacter' })).toHaveAttribute(
    'href',
    'mailto:contact@example.org',
  );
}

interface Destination {
  link: string;
  heading: string | RegExp;
}

const RESIDENCES: Destination = { link: 'Résidences', heading: 'Résidences' };
const LABEL: Destination = { link: 'Label', heading: 'Label' };
const ABOUT: Destination = { link: 'À propos', heading: 'À propos' };

/** Goes to a page through the navbar and waits for its main heading. */
async function visit(page: Page, to: Destination): Promise<void> {
  await nav(page).getByRole('link', { name: to.link, exact: true }).click();
  await expect(content(page).getByRole('heading', { level: 1 })).toHaveText(to.heading, { timeout: 15_000 });
}

/** Client-side navigation back to a page whose area failed (a page load would forget the failure). */
async function backTo(page: Page, path: string): Promise<void> {
  if (path === '/') {
    await page.getByRole('button', { name: "Retour à l'accueil" }).click();
  } else {
    const link = path === '/label' ? 'Label' : 'À propos';
    await nav(page).getByRole('link', { name: link, exact: true }).click();
  }
  await expect(page).toHaveURL(new RegExp(`${path === '/' ? '' : path}$`));
}

interface RemoteDrill {
  remote: 'player' | 'radio' | 'label' | 'about';
  /** Where the remote's area shows first. */
  path: string;
  fallback: string;
  /** Pages served by the other remotes, visited while this one is down. */
  others: Destination[];
  /** What shows in the area once it is back. */
  recovered: (page: Page) => Promise<void>;
}

const REMOTE_DRILLS: RemoteDrill[] = [
  {
    remote: 'player',
    path: '/label',
    fallback: 'Le lecteur est momentanément indisponible',
    others: [RESIDENCES, ABOUT, LABEL],
    recovered: async (page) => {
      await playLive(page);
    },
  },
  {
    remote: 'radio',
    path: '/',
    fallback: "La page d'accueil est momentanément indisponible",
    others: [LABEL, ABOUT],
    recovered: async (page) => {
      await expect(content(page).getByRole('heading', { name: 'Derniers podcasts' })).toBeVisible();
    },
  },
  {
    remote: 'label',
    path: '/label',
    fallback: 'La page du label est momentanément indisponible',
    others: [RESIDENCES, ABOUT],
    recovered: async (page) => {
      await expect(content(page).getByRole('list', { name: 'Sorties du label' })).toBeVisible();
    },
  },
  {
    remote: 'about',
    path: '/a-propos',
    fallback: 'La page À propos est momentanément indisponible',
    others: [LABEL, RESIDENCES],
    recovered: async (page) => {
      await expect(content(page).getByRole('heading', { name: "L'équipe" })).toBeVisible();
    },
  },
];

test.describe('a remote made unreachable', () => {
  for (const drill of REMOTE_DRILLS) {
    test(`mf-${drill.remote}: French fallback, the rest works, Réessayer recovers`, async ({ page }) => {
      // Several remotes load and the live stream plays: more than the default budget on a busy machine.
      test.slow();
      const pattern = `**/mf-${drill.remote}/**`;
      await page.route(pattern, (route) => route.abort('connectionrefused'));
      await page.goto(drill.path);

      const fallback = page.getByRole('alert').filter({ hasText: drill.fallback });
      await expect(fallback).toBeVisible({ timeout: 15_000 });
      await expect(fallback).toContainText('Réessayez dans un instant.');
      await expect(fallback.getByRole('button', { name: 'Réessayer' })).toBeVisible();
      await expectShellWorks(page);

      for (const destination of drill.others) await visit(page, destination);
      if (drill.remote !== 'player') {
        await playLive(page);
        await markAudio(page);
        // Back to the page while its remote is still down: the fallback again, not a blank area.
        await backTo(page, drill.path);
        await expect(page.getByRole('alert').filter({ hasText: drill.fallback })).toBeVisible({ timeout: 15_000 });
      }

      // The remote comes back: Réessayer recovers the area in place, without a page load that would
      // cut the sound.
      await page.unroute(pattern);
      await page
        .getByRole('alert')
        .filter({ hasText: drill.fallback })
        .getByRole('button', { name: 'Réessayer' })
        .click();
      await expect(page.getByRole('alert').filter({ hasText: drill.fallback })).toHaveCount(0);
      await drill.recovered(page);
      await expectShellWorks(page);
      if (drill.remote !== 'player') await expectSameAudioPlaying(page);
    });
  }
});

/**
 * A remote whose code loads but throws while rendering, as a bad deployment would: its entry is
 * replaced by a container whose exposed page throws on render.
 */
const BROKEN_LABEL_ENTRY = `var collectif_label = {
  init: function () {},
  get: function () {
    return Promise.resolve(function () {
      return { __esModule: true, default: function LabelPage() { throw new Error('exercice : rendu impossible'); } };
    });
  },
};`;

test('a remote that throws while rendering: French fallback, the rest works, Réessayer recovers', async ({ page }) => {
  test.slow();
  const entry = '**/mf-label/remoteEntry.js';
  await page.route(entry, (route) =>
    route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: BROKEN_LABEL_ENTRY }),
  );
  await gotoPage(page, '/');
  await playLive(page);
  await markAudio(page);
  await nav(page).getByRole('link', { name: 'Label', exact: true }).click();
  const fallback = page.getByRole('alert').filter({ hasText: 'La page du label est momentanément indisponible' });
  await expect(fallback).toBeVisible({ timeout: 15_000 });
  await expectShellWorks(page);
  await visit(page, RESIDENCES);
  await visit(page, ABOUT);

  await backTo(page, '/label');
  await expect(fallback).toBeVisible({ timeout: 15_000 });

  // The fixed remote is deployed again: Réessayer brings the page without a page load.
  await page.unroute(entry);
  await fallback.getByRole('button', { name: 'Réessayer' }).click();
  await expect(content(page).getByRole('list', { name: 'Sorties du label' })).toBeVisible({ timeout: 15_000 });
  await expect(fallback).toHaveCount(0);
  await expectSameAudioPlaying(page);
});

/** /api as the site calls it; /api/demo/ stands in for the radio's and SoundCloud's media hosts. */
function isApiCall(url: URL): boolean {
  return url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/demo/');
}

/** Answers a request that may have been given up by the page meanwhile (a timeout, a new page). */
async function settle(action: Promise<void>): Promise<void> {
  try {
    await action;
  } catch {
    // The request is gone: nothing to answer.
  }
}

type ApiAnswer = (route: Route, path: string) => Promise<void>;

const failing: ApiAnswer = (route) =>
  route.fulfill({
    status: 500,
    json: { error: 'internal', message: 'Erreur interne (exercice).' },
  });

const SLOW_MS = 15_000;

const slow: ApiAnswer = async (route) => {
  await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
  await route.continue();
};

const invalidJson: ApiAnswer = (route) =>
  route.fulfill({ status: 200, contentType: 'application/json; charset=utf-8', body: '{"live": tru' });

const htmlPage: ApiAnswer = (route) =>
  route.fulfill({
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: '<!doctype html><html lang="fr"><body><h1>Maintenance</h1><p>Revenez plus tard.</p></body></html>',
  });

const emptyObject: ApiAnswer = (route) => route.fulfill({ status: 200, json: {} });

/** Every field of the wrong type: lists of junk, a live flag that is a word, numbers for names. */
const wrongTypes: ApiAnswer = (route, path) => {
  if (path === '/api/islive') return route.fulfill({ json: { live: 'oui' } });
  if (path === '/api/nowplaying') return route.fulfill({ json: { artist: 1, title: ['x'] } });
  if (path.startsWith('/api/track/')) return route.fulfill({ contentType: 'text/plain', body: '{"url": 1}' });
  return route.fulfill({ json: [null, 42, 'texte', { title: 1, href: {}, url: [], link: null }] });
};

async function breakApi(page: Page, answer: ApiAnswer): Promise<void> {
  await page.route(isApiCall, (route) => settle(answer(route, new URL(route.request().url()).pathname)));
}

/**
 * No block anywhere still says it is loading ('Chargement ...' in pages, 'chargement ...' in the
 * player), once the page was scrolled through (a block below the first screen asks once seen).
 */
async function expectNothingLoading(page: Page, timeout: number): Promise<void> {
  await scrollThrough(page);
  await expect(page.locator('body')).not.toContainText(/chargement/i, { timeout });
}

/**
 * The home page's blocks, reached from /a-propos: the server sends each page with its data, so the
 * browser meets the API on the way from page to page, as a visitor does. The visit starts on the
 * one page that needs nothing from it.
 */
async function expectFrenchHome(page: Page, timeout: number): Promise<void> {
  const main = content(page);
  const block = (name: string) => main.getByRole('region', { name, exact: true });
  await page.getByRole('button', { name: "Retour à l'accueil" }).click();
  await expect(block('Derniers podcasts')).toContainText('Les podcasts sont momentanément indisponibles.', {
    timeout,
  });
  await expect(block('Derniers podcasts').getByRole('button', { name: 'Réessayer' })).toBeVisible();
  await expect(block('Dernières sorties')).toContainText('Les sorties du label sont momentanément indisponibles.', {
    timeout,
  });
  await expect(block('Dernières sorties').getByRole('button', { name: 'Réessayer' })).toBeVisible();
  // The slides are the volunteers' content, read from /api like the rest (docs/content.md).
  await expect(block('À la une')).toContainText('La une est momentanément indisponible.', { timeout });
  await expect(block('À la une').getByRole('button', { name: 'Réessayer' })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Rafraîchir' })).toBeVisible({ timeout });
  await expect(main.getByRole('heading', { name: 'Pas de direct au studio actuellement' })).toBeVisible();
  await expect(block('Radio Schedule').getByRole('link', { name: /Ouvrir l'agenda/ })).toBeVisible();
  await expectNothingLoading(page, timeout);
}

/** The player: the live stream plays with unknown names, and a replay it cannot resolve is said so. */
async function expectFrenchPlayer(page: Page, timeout: number): Promise<void> {
  await playLive(page);
  await expect(playerRegion(page)).toContainText('Inconnu');
  await page.evaluate(() => {
    const detail = { trackUrn: 'soundcloud:tracks:1', url: '', duration: 60, artist: 'Exercice', show: 'Panne' };
    window.dispatchEvent(new CustomEvent('collectif:replay-selected', { detail }));
  });
  await expect(playerRegion(page).getByRole('status')).toHaveText(
    'Cette émission ne peut pas être lue pour le moment. Réessayez dans quelques instants.',
    { timeout },
  );
  await expectNothingLoading(page, timeout);
}

/** The residences, read from /api on the way (the volunteers' content, docs/content.md). */
async function expectFrenchResidences(page: Page, timeout: number): Promise<void> {
  const main = content(page);
  await nav(page).getByRole('link', { name: 'Résidences', exact: true }).click();
  await expect(main).toContainText('Les résidences sont momentanément indisponibles. Réessayez dans un instant.', {
    timeout,
  });
  await expect(main.getByRole('button', { name: 'Réessayer' })).toBeVisible();
  await expectNothingLoading(page, timeout);
}

/** The label's catalogue, then back to /a-propos, whose texts and team came with the first page and are kept. */
async function expectFrenchLabelAndAbout(page: Page, timeout: number): Promise<void> {
  const main = content(page);
  await nav(page).getByRole('link', { name: 'Label', exact: true }).click();
  await expect(main).toContainText('Le catalogue du label est momentanément indisponible.', { timeout });
  await expect(main.getByRole('button', { name: 'Réessayer' })).toBeVisible();
  await expectNothingLoading(page, timeout);

  await nav(page).getByRole('link', { name: 'À propos', exact: true }).click();
  await expect(main.getByRole('heading', { name: "L'équipe" })).toBeVisible();
  await expectNothingLoading(page, timeout);
}

/** The parts of the visit below, each from /a-propos. */
const LEGS = [expectFrenchHome, expectFrenchPlayer, expectFrenchResidences, expectFrenchLabelAndAbout];

/** No page was replaced by the shell's fallback on the way. */
async function expectNoFallback(page: Page): Promise<void> {
  await expect(page.getByText('momentanément indisponible. Réessayez dans un instant')).toHaveCount(0);
}

/**
 * Every block of every page shows what it has or a French sentence saying it cannot: never a blank
 * area, never a page replaced by its fallback, never a spinner that stays. One visit, page after page.
 */
async function expectFrenchStatesEverywhere(page: Page, timeout: number): Promise<void> {
  await gotoPage(page, '/a-propos');
  for (const leg of LEGS) await leg(page, timeout);
  await expectNoFallback(page);
}

test.describe('/api failing', () => {
  test('answering 500 everywhere: every block says so in French', async ({ page }) => {
    test.slow();
    await breakApi(page, failing);
    await expectFrenchStatesEverywhere(page, 10_000);
  });

  test('answering after 15 s: requests time out and every block says so in French', async ({ page, context }) => {
    // Each page waits for RTK Query's 10 s timeout once: the same visit's parts, each in a tab of its
    // own from /a-propos, wait side by side rather than one after the other.
    test.slow();
    await Promise.all(
      LEGS.map(async (leg, index) => {
        const tab = index === 0 ? page : await context.newPage();
        await breakApi(tab, slow);
        await gotoPage(tab, '/a-propos');
        await leg(tab, 20_000);
        await expectNoFallback(tab);
      }),
    );
  });

  const garbage: [string, ApiAnswer][] = [
    ['invalid JSON', invalidJson],
    ['an HTML page', htmlPage],
    ['{} where a list is expected', emptyObject],
    ['fields of the wrong type', wrongTypes],
  ];
  for (const [name, answer] of garbage) {
    test(`answering ${name}: no page crashes, every block says so in French`, async ({ page }) => {
      test.slow();
      await breakApi(page, answer);
      await expectFrenchStatesEverywhere(page, 10_000);
    });
  }
});

test.describe('third-party hosts blocked (video, calendar, maps, chat)', () => {
  /** Third-party requests the page made, which the fixtures block. */
  function blockedHosts(page: Page): Set<string> {
    const hosts = new Set<string>();
    page.on('requestfailed', (request) => {
      const { hostname } = new URL(request.url());
      if (hostname !== '127.0.0.1' && hostname !== 'localhost') hosts.add(hostname);
    });
    return hosts;
  }

  test('home, live: the Twitch player gives way to a link; the calendar, asked for, keeps its link', async ({
    page,
  }) => {
    const blocked = blockedHosts(page);
    await page.route('**/api/islive', (route) => route.fulfill({ json: { live: true } }));
    await gotoPage(page, '/');
    const main = content(page);
    await expect(main.getByRole('heading', { name: 'Direct' })).toBeVisible();
    await expect(main).toContainText("Le lecteur vidéo ne peut pas s'afficher ici.", { timeout: 15_000 });
    const twitch = main.getByRole('link', { name: /Regarder le direct sur Twitch/ });
    await expect(twitch).toHaveAttribute('href', 'https://www.twitch.tv/example_collectif');
    await expect(twitch).toHaveAttribute('target', '_blank');

    const schedule = main.getByRole('region', { name: 'Radio Schedule' });
    await schedule.scrollIntoViewIfNeeded();
    const calendar = schedule.getByRole('link', { name: /Ouvrir l'agenda/ });
    await expect(calendar).toHaveAttribute('href', /^https:\/\/calendar\.google\.com\/calendar\/embed\?.*mode=AGENDA/);
    await expect(calendar).toHaveAttribute('target', '_blank');
    // Nothing was asked of the calendar provider before the visitor's click.
    expect([...blocked]).not.toContain('calendar.google.com');
    await schedule.getByRole('button', { name: "Afficher l'agenda" }).click();
    await expect(schedule.getByRole('link', { name: /Ouvrir l'agenda/ })).toBeVisible();
    await expect
      .poll(() => [...blocked].sort())
      .toEqual(expect.arrayContaining(['embed.twitch.tv', 'calendar.google.com']));
    await expectNothingLoading(page, 5_000);
  });

  test('about: the studio map gives way to a link', async ({ page }) => {
    const blocked = blockedHosts(page);
    await gotoPage(page, '/a-propos');
    const studio = content(page).getByRole('region', { name: 'Le studio', exact: true });
    await studio.scrollIntoViewIfNeeded();
    await expect(studio).toContainText('12 rue des Exemples, 31000 Toulouse');
    const map = studio.getByRole('link', { name: /Ouvrir le plan/ });
    await expect(map).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=12%20rue/);
    await expect(map).toHaveAttribute('target', '_blank');
    expect([...blocked]).not.toContain('www.google.com');
    await studio.getByRole('button', { name: 'Afficher le plan' }).click();
    await expect.poll(() => [...blocked]).toContain('www.google.com');
    await expect(studio.getByRole('link', { name: /Ouvrir le plan/ })).toBeVisible();
  });

  test('player: the chat gives way to a French message and a link', async ({ page }) => {
    await gotoPage(page, '/');
    await playLive(page);
    await page.getByRole('button', { name: 'Ouvrir le chat' }).click();
    const chat = page.getByRole('region', { name: 'Chat de la radio' });
    await expect(chat).toContainText('Le chat ne peut pas s’afficher ici pour le moment.', { timeout: 15_000 });
    const link = chat.getByRole('link', { name: /Ouvrir le chat dans un nouvel onglet/ });
    await expect(link).toHaveAttribute('href', /^https:\/\/minnit\.chat\/collectif-garonne/);
    await expect(link).toHaveAttribute('target', '_blank');
    // The sound goes on while the chat fails.
    await expectTimeAdvancing(page, 0.5);
  });
});

test('the live stream drops while playing: the player reconnects by itself', async ({ page }) => {
  test.slow();
  // A few seconds of real MP3 stand for the live stream until the connection drops.
  const replay = await page.request.get('/api/demo/replays/lever-du-jour.mp3');
  const fewSeconds = (await replay.body()).subarray(0, 4 * 8_000);
  const requests: string[] = [];
  await page.route(
    (url) => url.pathname === '/api/demo/live.mp3',
    async (route) => {
      requests.push(route.request().url());
      // First connection: ends after a few seconds, like a server that hangs up. Second: refused.
      if (requests.length === 1) await route.fulfill({ contentType: 'audio/mpeg', body: fewSeconds });
      else if (requests.length === 2) await route.abort('connectionreset');
      else await route.continue();
    },
  );

  await gotoPage(page, '/');
  await playLive(page);
  const first = (await audioState(page))?.src ?? '';
  expect(first).toContain('/api/demo/live.mp3?direct=');

  await expect(playerRegion(page).getByRole('status')).toHaveText('Connexion au direct perdue, reconnexion ...', {
    timeout: 15_000,
  });
  // The visitor did nothing: the player joined the live edge again, on a new address each time.
  await expect.poll(() => requests.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  await expect.poll(async () => (await audioState(page))?.src, { timeout: 15_000 }).not.toBe(first);
  await expectTimeAdvancing(page, 1);
  expect(new Set(requests).size).toBe(requests.length);
  await expect(playerRegion(page)).not.toContainText('Connexion au direct perdue');
  await expect(playerRegion(page).getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expectNothingLoading(page, 5_000);
});

test('fifty route changes with audio playing: no interruption, and the heap does not grow', async ({ page }) => {
  test.setTimeout(240_000);
  const HEAP_BUDGET = 5 * 1024 * 1024;
  const cdp = await page.context().newCDPSession(page);
  /** JavaScript heap in use once garbage is collected (twice: some objects need a second pass). */
  const heapAfterGc = async (): Promise<number> => {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };

  const main = content(page);
  const stops: { name: string; go: () => Promise<void> }[] = [
    { name: 'résidences', go: () => visit(page, RESIDENCES) },
    {
      name: 'une résidence',
      go: async () => {
        await main.getByRole('list', { name: 'Émissions résidentes' }).getByRole('link').first().click();
        await expect(main.getByRole('heading', { name: 'Dernières émissions' })).toBeVisible({ timeout: 15_000 });
      },
    },
    { name: 'label', go: () => visit(page, LABEL) },
    { name: 'à propos', go: () => visit(page, ABOUT) },
    {
      name: 'accueil',
      go: async () => {
        await page.getByRole('button', { name: "Retour à l'accueil" }).click();
        await expect(main.getByRole('heading', { name: 'Derniers podcasts' })).toBeVisible({ timeout: 15_000 });
      },
    },
  ];
  let changes = 0;
  let lastTime = 0;
  const tour = async () => {
    for (const stop of stops) {
      await stop.go();
      changes += 1;
      // The sound went on through the change: its time moves on (read until it does, a few seconds at
      // most: the browser updates the time it reports every few hundred milliseconds, and a quick
      // change can be read within one such step).
      const since = lastTime;
      await expect
        .poll(() => audioTime(page), { message: `après ${stop.name}`, timeout: 5_000 })
        .toBeGreaterThan(since);
      lastTime = await audioTime(page);
    }
  };

  await gotoPage(page, '/');
  await playLive(page);
  await markAudio(page);
  lastTime = await audioTime(page);
  // One tour first, so that every remote, page and answer is loaded: what remains is steady state.
  await tour();
  const before = await heapAfterGc();
  changes = 0;
  for (let round = 0; round < 10; round += 1) await tour();
  expect(changes).toBe(50);
  const after = await heapAfterGc();

  const growth = after - before;
  const figure = `${(before / 1048576).toFixed(2)} MB → ${(after / 1048576).toFixed(2)} MB (${growth >= 0 ? '+' : ''}${(growth / 1048576).toFixed(2)} MB)`;
  test.info().annotations.push({ type: 'tas JavaScript après 50 changements de page', description: figure });
  console.log(`Tas JavaScript après 50 changements de page : ${figure}`);
  expect(growth).toBeLessThanOrEqual(HEAP_BUDGET);
  await expectSameAudioPlaying(page);
  await expect(playerRegion(page).getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
});
