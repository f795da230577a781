import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures';

// What the editor's browser tests share (docs/content.md, « Signing in »): the site on `localhost`,
// the passkeys' relying party of a server whose SITE_ORIGIN is its default (127.0.0.1 cannot be
// one); an invitation made with `npm run admin`; Chromium's virtual authenticator.

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

/** The site's address on `localhost`, the same server as the tests' base URL. */
export function localhost(path: string): string {
  const base = new URL(test.info().project.use.baseURL ?? 'http://127.0.0.1:4173');
  return `http://localhost:${base.port}${path}`;
}

/** `npm run admin -- invite …`, as an admin types it; the link it prints. */
export async function invite(args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', './server/tsx.mjs', 'server/src/admin/cli.ts', 'invite', ...args, '--site', localhost('')],
    { cwd: ROOT },
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
