import type { Frame, Page } from '@playwright/test';
import {
  DEFAULT_EMBED_OPTIONS,
  EMBED_HEIGHTS,
  embedCspLines,
  embedFrameSnippet,
  embedHeightListenerSnippet,
  embedScriptSnippet,
  type EmbedOptions,
} from '@collectif/shared/embed';
import { siteConfig } from '@collectif/shared/config';
import { expect, test } from '../fixtures';
import { startPartnerSite, type PartnerSite } from '../partner';

/**
 * The snippets a partner copies (docs/embed.md), pasted into pages of another loopback origin
 * whose Content-Security-Policy allows nothing but what the snippets' own CSP lines say: the
 * script and the iframe both play, the iframe tells its height, nothing is refused.
 */
let partner: PartnerSite;
let partnerOrigin = '';
let siteOrigin = '';

const RESIDENCE: EmbedOptions = {
  ...DEFAULT_EMBED_OPTIONS,
  source: { kind: 'residence', id: 'axonberg' },
  theme: 'clair',
  format: 'carte',
};

/** The partner's page: its policy, its body, and the height listener as a file of its own. */
function partnerPages(site: string): Record<string, { policy: string; body: string; type?: string }> {
  const listener = embedHeightListenerSnippet(site).replace(/^<script>\n|\n<\/script>$/g, '');
  const strict = ["default-src 'none'", "style-src 'self'"];
  return {
    '/script': {
      policy: [...strict, ...embedCspLines(site, null, 'script')].join('; ').replace(/;;/g, ';'),
      body: embedScriptSnippet(site, RESIDENCE),
    },
    '/cadre': {
      policy: [...strict, `script-src 'self'`, ...embedCspLines(site, null, 'iframe')].join('; ').replace(/;;/g, ';'),
      body: `${embedFrameSnippet(site, { ...DEFAULT_EMBED_OPTIONS, format: 'carte' }, siteConfig.name)}\n<script src="/ecoute.js"></script>`,
    },
    '/ecoute.js': { policy: "default-src 'none'", body: listener, type: 'text/javascript' },
  };
}

test.beforeAll(async ({ baseURL }) => {
  siteOrigin = baseURL ?? '';
  const pages = partnerPages(siteOrigin);
  partner = await startPartnerSite((req, res) => {
    const page = pages[req.url ?? ''];
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': `${page.type ?? 'text/html'}; charset=utf-8`,
      'Content-Security-Policy': page.policy,
    });
    res.end(
      page.type === undefined
        ? `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Salle partenaire</title></head><body><h1>Salle partenaire</h1>\n${page.body}\n</body></html>`
        : page.body,
    );
  });
  partnerOrigin = partner.origin;
});

test.afterAll(async () => {
  await partner.close();
});

/** Every refusal of the partner's policy, in the page and its frames. */
function watchRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  page.on('pageerror', (error) => refused.push(error.message));
  return refused;
}

function audioTime(target: Page | Frame): Promise<number> {
  return target.evaluate(() => document.querySelector<HTMLAudioElement>('#lecteur-audio')?.currentTime ?? -1);
}

async function expectSound(target: Page | Frame): Promise<void> {
  await expect.poll(() => audioTime(target), { timeout: 15_000 }).toBeGreaterThan(0);
  const start = await audioTime(target);
  await expect.poll(() => audioTime(target), { timeout: 15_000 }).toBeGreaterThan(start + 0.5);
}

test('the script snippet, under the partner’s strict policy, shows the residence’s latest episode and plays it', async ({
  page,
}) => {
  test.slow();
  const refused = watchRefusals(page);
  const answer = (await (await page.request.get(`/api/episodes?residence=axonberg`)).json()) as {
    items: { artist: string; show: string }[];
  };
  const [latest] = answer.items;
  if (latest === undefined) throw new Error('aucun épisode');
  await page.goto(`${partnerOrigin}/script`);
  // Before the first play: the bar, drawn by the first script alone, with what it will play.
  const player = page.locator('collectif-player');
  await expect(player.getByRole('region', { name: 'Lecteur radio' }).getByText(latest.show)).toBeVisible();
  await expect(player).toHaveAttribute('data-format', 'carte');
  // A residence's card lists its latest episodes under it, the one the bar shows marked.
  const episodes = player.getByRole('region', { name: 'Derniers épisodes' }).getByRole('button');
  await expect(episodes).toHaveCount(4);
  await expect(episodes.first()).toHaveAttribute('aria-current', 'true');
  const before = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.endsWith('.js')),
  );
  expect(before).toEqual(['/embed/collectif-player.js']);

  await player.getByRole('button', { name: 'Lecture' }).click();
  await expect(player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(player.getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  await expectSound(page);
  // The light look reached into the shadow root: the bar is white, its text dark.
  const colours = await player.evaluate((host) => {
    const bar = host.shadowRoot?.querySelector('.player__bar');
    return bar === null || bar === undefined ? null : getComputedStyle(bar).backgroundColor;
  });
  expect(colours).toBe('rgb(255, 255, 255)');
  expect(refused).toEqual([]);
});

test('the iframe snippet plays the live stream in the frame and the frame takes the height the player tells', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 390, height: 700 });
  const refused = watchRefusals(page);
  await page.goto(`${partnerOrigin}/cadre`);
  const iframe = page.locator('iframe');
  await expect(iframe).toHaveAttribute('height', String(EMBED_HEIGHTS.carte));
  const frame = page.frameLocator('iframe');
  await frame.getByRole('button', { name: 'Lecture' }).click();
  await expect(frame.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  const inner = page.frames().find((candidate) => candidate.url().includes('/embed/lecteur'));
  if (inner === undefined) throw new Error('pas de cadre');
  await expectSound(inner);

  // The player's own height, told by postMessage, is the frame's.
  const told = await inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await expect
    .poll(() => iframe.evaluate((element) => (element as HTMLIFrameElement).style.height))
    .toBe(`${String(told)}px`);
  expect((await iframe.boundingBox())?.height).toBe(told);
  expect(refused).toEqual([]);
});

test('the iframe page may be framed anywhere, and it alone', async ({ request }) => {
  const frame = await request.get('/embed/lecteur?episode=inconnu&theme=rose&format=%3Cscript%3E');
  expect(frame.status()).toBe(200);
  expect(frame.headers()['content-security-policy']).toContain('frame-ancestors *');
  expect(frame.headers()['x-frame-options']).toBeUndefined();
  // Unknown values take their defaults; nothing from the address is written as it came.
  const html = await frame.text();
  expect(html).toContain('<collectif-player api-base="/api" episode="inconnu"></collectif-player>');
  expect(html).not.toContain('<script>');

  const home = await request.get('/');
  // The policy alone refuses framing: no X-Frame-Options on any page (docs/server.md).
  expect(home.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
  expect(home.headers()['x-frame-options']).toBeUndefined();
});
