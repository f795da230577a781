import { execFile } from 'node:child_process';
import dns from 'node:dns';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, APIResponse, BrowserContext, CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures';

// What the editor's browser tests share (docs/content.md, « Signing in », « The editor's origin »):
// the public site on `localhost`, the passkeys' relying party of a server whose SITE_ORIGIN is its
// default (127.0.0.1 cannot be one); the editor on its own origin, `edition.localhost` (the tests'
// server runs with EDITOR_ORIGIN, e2e/playwright.config.ts), a sub-domain whose pages may name that
// relying party; an invitation made with `npm run admin`; Chromium's virtual authenticator.

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

// `*.localhost` is the loopback (RFC 6761), which Chromium knows by itself, but Node asks the
// system's resolver, and glibc without nss-myhostname (a bare Debian, CI's containers) answers
// ENOTFOUND: the requests the tests make from Node (`page.request`, `playwright.request`) would
// never reach the editor's host. Playwright's client resolves through `dns.promises.lookup`, in
// this very process: a name under `.localhost` is looked up as the loopback the server listens on.
const systemLookup = dns.promises.lookup.bind(dns.promises);
dns.promises.lookup = ((hostname: string, options: dns.LookupOptions) =>
  systemLookup(/\.localhost\.?$/i.test(hostname) ? '127.0.0.1' : hostname, options)) as typeof dns.promises.lookup;

function port(): string {
  return new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1:4173').port;
}

/** The public site's address on `localhost`, the same server as the tests' base URL. */
export function localhost(path: string): string {
  return `http://localhost:${port()}${path}`;
}

/** The editor's address on its own origin, `edition.localhost`, the same server again (by its Host). */
export function editor(path: string): string {
  return `http://edition.localhost:${port()}${path}`;
}

/**
 * Requests to the editor's origin as its own pages make them: the address on that origin, and its
 * `Origin`, without which the editor's host refuses any write (403); Playwright's request context
 * sends no `Origin` by itself. The cookies are the context's for that host (its session, its XSRF
 * token), never the public host's.
 */
export function editorApi(request: APIRequestContext): {
  get: (path: string, options?: EditorRequest) => Promise<APIResponse>;
  put: (path: string, options?: EditorRequest) => Promise<APIResponse>;
  post: (path: string, options?: EditorRequest) => Promise<APIResponse>;
} {
  const send =
    (method: string) =>
    (path: string, options: EditorRequest = {}): Promise<APIResponse> =>
      request.fetch(editor(path), { ...options, method, headers: { ...options.headers, Origin: editor('') } });
  return { get: send('GET'), put: send('PUT'), post: send('POST') };
}

interface EditorRequest {
  headers?: Record<string, string>;
  data?: unknown;
}

/**
 * The XSRF header of a write to the editor's origin from this context: the cookie that host holds
 * (not the public host's), asked of its `/api/xsrf` when there is none, as the editor's own client
 * does (docs/api.md, « XSRF »). Asked only then: each answer of `/api/xsrf` is a new cookie, and a
 * header taken before would no longer match.
 */
export async function editorXsrf(context: BrowserContext): Promise<Record<string, string>> {
  const held = async () => (await context.cookies(editor('/'))).find((c) => c.name === 'XSRF-TOKEN')?.value;
  let token = await held();
  if (token === undefined) {
    await editorApi(context.request).get('/api/xsrf');
    token = await held();
  }
  expect(token, 'the editor’s XSRF-TOKEN cookie').toBeTruthy();
  return { 'X-XSRF-TOKEN': token ?? '' };
}

/**
 * `npm run admin -- invite …`, as an admin types it; the link it prints. On the editor's origin, as
 * the command prints it where EDITOR_ORIGIN is set; `{ on: 'public' }`, the link as it was sent
 * before the editor moved, to the public site, which sends the browser on to the editor.
 */
export async function invite(args: string[], { on = 'editor' }: { on?: 'editor' | 'public' } = {}): Promise<string> {
  const site = on === 'editor' ? editor('') : localhost('');
  const { stdout } = await run(
    process.execPath,
    ['--import', './server/tsx.mjs', 'server/src/admin/cli.ts', 'invite', ...args, '--site', site],
    // The shared server's content (playwright.config.ts, E2E_SERVER_FOLDER), where it reads accounts.
    {
      cwd: ROOT,
      env: { ...process.env, CONTENT_DIR: join(process.env.E2E_SERVER_FOLDER ?? '', 'contenu') },
    },
  );
  const link = stdout.split('\n').find((line) => line.includes('/admin/invitation#'));
  expect(link, stdout).toBeDefined();
  return (link ?? '').trim();
}

/** A platform authenticator that holds passkeys and says yes, as a phone would after its lock. */
export async function authenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * A new account signed in on the editor's origin: the invitation's link of `args` (as
 * `npm run admin -- invite` takes them), the account named `<name>-<time>`, its passkey made by the
 * page's platform authenticator.
 */
export async function signUp(page: Page, args: string[], name: string): Promise<void> {
  await authenticator(page);
  await page.goto(await invite(args));
  await page.getByLabel('Nom du compte').fill(`${name}-${String(Date.now())}`);
  await page.getByRole('button', { name: 'Créer ma clé d’accès' }).click();
  await expect(page).toHaveURL(editor('/admin'));
}
