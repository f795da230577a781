import type { APIResponse, Page } from '@playwright/test';
import { authenticator, editor, editorApi, editorXsrf, invite, localhost, signUp } from '../editor';
import { expect, gotoPage, test } from '../fixtures';
import { displayFaceIn } from '../screen';

// The editor on an origin of its own (docs/content.md, « The editor's origin »), seen from Chromium:
// what a script of the public site (every team's part runs there, as the visitor) can no longer do
// with a volunteer's session or an invitation's token, what the editor's document loads, and the
// security headers of both hosts. While the editor was a page of the public origin, each of these
// failed: the same script's write carried the volunteer's session and the XSRF cookie it could read,
// the invitation's page ran the shell and every part with the token in its address, and `/admin` was
// the shell's page with the other parts.

/** What a write attempted by a page's script came to: the status it could read, or blocked. */
type Outcome = number | 'bloquée';

/** A residence no other spec writes to (content.spec.ts takes the first, admin.spec.ts axonberg). */
async function quietResidence(page: Page): Promise<string> {
  const residences = (await (await page.request.get(localhost('/api/content/residences'))).json()) as { id: string }[];
  const taken = new Set([residences[0]?.id, 'axonberg', '130E0A', 'tournesol']);
  const id = residences.reverse().find((residence) => !taken.has(residence.id))?.id;
  expect(id, 'a residence no other spec writes to').toBeDefined();
  return id ?? '';
}

/** A residence as the public site serves it now. */
async function served(page: Page, id: string): Promise<string> {
  const residences = (await (await page.request.get(localhost('/api/content/residences'))).json()) as { id: string }[];
  return JSON.stringify(residences.find((residence) => residence.id === id));
}

/** A volunteer of `residence` invited and signed in on the editor's origin, as admin.spec.ts does. */
async function signUpIn(page: Page, residence: string): Promise<void> {
  await signUp(page, ['--role', 'residence', '--residence', residence], 'voisin');
  await expect(page.getByText(/Connecté·e :/)).toContainText(`(résidence « ${residence} »)`);
}

function expectHeaders(answer: APIResponse, what: string, referrer = 'strict-origin-when-cross-origin'): void {
  const headers = answer.headers();
  expect(answer.status(), what).toBe(200);
  expect(headers['strict-transport-security'], what).toBe('max-age=31536000; includeSubDomains');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe(referrer);
  expect(headers['x-xss-protection'], what).toBeUndefined();
}

test.describe('the editor’s own origin', () => {
  test.slow();

  test('a script of a public page writes nothing with the rights of a volunteer signed in on the editor', async ({
    page,
  }) => {
    const residence = await quietResidence(page);
    await signUpIn(page, residence);
    // Signed in for real: the editor's own requests are this resident's.
    const me = await editorApi(page.request).get('/api/editor/me');
    expect(await me.json()).toMatchObject({ role: 'residence', residence });
    const editorToken = (await page.context().cookies(editor('/'))).find((c) => c.name === 'XSRF-TOKEN')?.value;
    expect(editorToken, 'the editor’s XSRF cookie').toBeTruthy();
    const before = await served(page, residence);
    /** The admin's headers, taken when used: a script of the page may have changed the XSRF cookie. */
    const admin = async () => ({
      Authorization: 'Bearer e2e-jeton-admin-de-24-caracteres',
      ...(await editorXsrf(page.context())),
    });
    const { current } = (await (
      await editorApi(page.request).get('/api/content/residences/history', { headers: await admin() })
    ).json()) as { current: string };

    // The public page of their residence, in the same browser, with its scripts (a team's among them).
    const site = await page.context().newPage();
    try {
      await gotoPage(site, localhost(`/residences/${residence}`));
      const attempts = await site.evaluate(
        async ({ id, editorOrigin }) => {
          // Every cookie the page can read, an XSRF token among them (asked as the site's client asks).
          await fetch('/api/xsrf');
          const cookies = document.cookie;
          const token = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]+)/.exec(cookies)?.[1] ?? '');
          const body = JSON.stringify({
            entry: { id, artist: 'Piraté', show: 'Piraté', description: 'Piraté', styles: [] },
          });
          const headers = { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': token };
          const attempt = async (url: string, init: RequestInit): Promise<Outcome> => {
            try {
              return (await fetch(url, init)).status;
            } catch {
              return 'bloquée';
            }
          };
          return {
            cookies,
            token: token !== '',
            // Who is signed in, asked of the public host.
            me: await attempt('/api/editor/me', {}),
            // The editor's writes, on the page's own origin: the session's cookie would come along.
            sameOriginEntry: await attempt(`/api/content/residences/${id}`, { method: 'PUT', headers, body }),
            sameOriginPreview: await attempt(`/api/content/residences/${id}/preview`, {
              method: 'POST',
              headers,
              body,
            }),
            // …and on the editor's, with whatever credentials the browser would send.
            editorEntry: await attempt(`${editorOrigin}/api/content/residences/${id}`, {
              method: 'PUT',
              credentials: 'include',
              headers,
              body,
            }),
            editorRestore: await attempt(`${editorOrigin}/api/content/residences/${id}/restore`, {
              method: 'POST',
              credentials: 'include',
              headers,
              body: JSON.stringify({ id: 'x' }),
            }),
          };
        },
        { id: residence, editorOrigin: editor('') },
      );

      // The public host's cookies only: the editor's XSRF token and session are out of the page's reach.
      expect(attempts.token).toBe(true);
      expect(attempts.cookies).not.toContain(editorToken);
      expect(attempts.cookies).not.toContain('collectif_editeur');
      // The public host answers no editor request and takes no content write, whatever comes with it.
      expect(attempts.me).toBe(403);
      expect(attempts.sameOriginEntry).toBe(403);
      expect(attempts.sameOriginPreview).toBe(403);
      // The editor's host: refused by the browser (no CORS for credentials) or by the server (not
      // the editor's Origin); either way the page reads nothing of an answer.
      expect(['bloquée', 403]).toContain(attempts.editorEntry);
      expect(['bloquée', 403]).toContain(attempts.editorRestore);
      const refusal = (await (
        await site.request.put(localhost(`/api/content/residences/${residence}`), { data: {} })
      ).json()) as { error: string; message: string };
      expect(refusal).toEqual({
        error: 'editor_origin',
        message: `Les modifications se font dans l'éditeur, à ${editor('')}, pas sur le site public.`,
      });
      // Nothing saved: the public site serves the residence as it was.
      expect(await served(page, residence)).toBe(before);
    } finally {
      await site.close();
      if ((await served(page, residence)) !== before) {
        // A failed run does not leave a pirated residence to the other specs: that one alone restored.
        const restored = await editorApi(page.request).post(`/api/content/residences/${residence}/restore`, {
          headers: await admin(),
          data: { id: current },
        });
        expect(restored.status(), 'the residence restored').toBe(200);
      }
    }
  });

  test('an invitation’s public link reaches the editor before any script of the site, and no public page gets its token', async ({
    page,
  }) => {
    const residence = await quietResidence(page);
    const link = await invite(['--role', 'residence', '--residence', residence], { on: 'public' });
    const token = new URL(link).hash.slice(1);
    expect(link).toBe(localhost(`/admin/invitation#${token}`));
    const fromPublicHost: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === localhost('')) fromPublicHost.push(`${request.resourceType()} ${url.pathname}`);
    });

    // The public address answers with a redirect, the browser keeps the token (the fragment).
    const response = await page.goto(link);
    await expect(page).toHaveURL(editor(`/admin/invitation#${token}`));
    const first = response?.request().redirectedFrom();
    expect(first?.url()).toBe(localhost('/admin/invitation'));
    expect((await first?.response())?.status()).toBe(302);
    await expect(page.getByRole('heading', { level: 1, name: 'Invitation' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Of the public host, the address alone: no document of the site ran, none of its scripts loaded.
    expect(fromPublicHost).toEqual(['document /admin/invitation']);

    // A public page's script opens the link: the window it gets is on the editor's origin, out of reach.
    const site = await page.context().newPage();
    try {
      await gotoPage(site, localhost('/'));
      const seen = await site.evaluate(async (address) => {
        const opened = window.open(address);
        if (opened === null) return 'pas de fenêtre';
        try {
          for (let i = 0; i < 100; i += 1) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            if (opened.closed) return 'hors de portée';
            try {
              const href = opened.location.href;
              if (href !== 'about:blank') return href;
            } catch {
              return 'hors de portée';
            }
          }
          return 'rien';
        } finally {
          opened.close();
        }
      }, link);
      expect(seen).toBe('hors de portée');

      // Given the token, the public page's script cannot start the invitation's passkey either.
      const attempts = await site.evaluate(
        async ({ token: stolen, editorOrigin }) => {
          await fetch('/api/xsrf');
          const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '');
          const init: RequestInit = {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf },
            body: JSON.stringify({ token: stolen, name: 'intrus' }),
          };
          const onSite = await fetch('/api/editor/invitation/options', init);
          let onEditor: number | 'bloquée';
          try {
            onEditor = (
              await fetch(`${editorOrigin}/api/editor/invitation/options`, { ...init, credentials: 'include' })
            ).status;
          } catch {
            onEditor = 'bloquée';
          }
          return { onSite: { status: onSite.status, body: (await onSite.json()) as { error: string } }, onEditor };
        },
        { token, editorOrigin: editor('') },
      );
      expect(attempts.onSite.status).toBe(403);
      expect(attempts.onSite.body.error).toBe('editor_origin');
      expect(['bloquée', 403]).toContain(attempts.onEditor);
    } finally {
      await site.close();
    }

    // The volunteer, on the editor's origin, makes their account with it as before (their tab in
    // front again: a passkey is asked for the focused page only).
    await page.bringToFront();
    await authenticator(page);
    await page.getByLabel('Nom du compte').fill(`lien-public-${String(Date.now())}`);
    await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
    await expect(page).toHaveURL(editor('/admin'));
    await expect(page.getByText(/Connecté·e :/)).toContainText(`(résidence « ${residence} »)`);
  });

  test('the editor’s document loads the editor alone, and no page may frame it', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    const response = await page.goto(editor('/admin'));
    await expect(page.getByRole('heading', { level: 1, name: 'Espace des bénévoles' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Se connecter avec une clé d’accès' })).toBeVisible();
    // Its headings in the site's display face, from the file its document announces.
    await displayFaceIn(page);
    await page.waitForLoadState('networkidle');

    // No other part, not the shell (its entry and manifest are at the site's root).
    const paths = asked.map((url) => new URL(url).pathname);
    expect(paths.filter((path) => /^\/(?:mf-player|mf-radio|mf-label|mf-about)\//.test(path))).toEqual([]);
    expect(paths.filter((path) => /^\/(?:main\.[0-9a-f]+\.js|mf-manifest\.json|remoteEntry\.js)$/.test(path))).toEqual(
      [],
    );
    // Everything it asked for is the editor's own, on its origin: the document, the editor's build
    // (/mf-admin/editor/, not the part's remote entry), the /api it uses.
    for (const url of asked) {
      expect(url.startsWith(editor('/')), url).toBe(true);
      expect(new URL(url).pathname, url).toMatch(/^\/(?:admin$|mf-admin\/editor\/|api\/(?:editor|xsrf)\/?)/);
    }
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy.split('; ')).toContain("frame-ancestors 'none'");
    expect(policy.split('; ')).toContain("script-src 'self'");
  });

  test('pages, files and /api answers of both hosts carry the security headers, and no obsolete one', async ({
    page,
  }) => {
    const editorPage = await page.request.get(editor('/admin'), { maxRedirects: 0 });
    expectHeaders(editorPage, 'the editor’s document', 'no-referrer');
    const editorScript = /src=["']?(\/mf-admin\/editor\/main\.[0-9a-f]+\.js)/.exec(await editorPage.text())?.[1];
    expect(editorScript, 'the editor’s script').toBeDefined();
    expectHeaders(await page.request.get(editor(editorScript ?? ''), { maxRedirects: 0 }), 'the editor’s script');
    expectHeaders(await editorApi(page.request).get('/api/editor/me'), 'the editor’s /api');

    const publicPage = await page.request.get(localhost('/'), { maxRedirects: 0 });
    expectHeaders(publicPage, 'a public page');
    const shellScript = /src=["']?(\/main\.[0-9a-f]+\.js)/.exec(await publicPage.text())?.[1];
    expect(shellScript, 'the shell’s script').toBeDefined();
    expectHeaders(await page.request.get(localhost(shellScript ?? ''), { maxRedirects: 0 }), 'the shell’s script');
    expectHeaders(await page.request.get(localhost('/api/content/slides'), { maxRedirects: 0 }), 'the public /api');
  });
});
