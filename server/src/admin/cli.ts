// `npm run admin -- <invite|revoke|list>`: the collective's accounts from the command line
// (docs/content.md, « Accounts »), on the machine whose CONTENT_DIR the site serves.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ConfigError } from '../settings/kinds';
import { setting } from '../settings/settings';
import { SERVER_DIR } from '../api/env';
import { AccountRefused, INVITATION_DAYS, invite, listAccounts, revoke } from '../content/accounts';
import { ROLES, type Role } from '../content/editors';
import { repositorySeeds } from '../content/kinds';
import { ContentUnwritable, createContentStore, type ContentStore } from '../content/store';
import { connectShared } from '../instances/shared-state';
import { shareContent } from '../content/shared';

const USAGE = [
  'npm run admin -- invite --role <admin|residence|label|about|programmation> [--residence <id>] [--site <adresse>]',
  'npm run admin -- revoke <compte>',
  'npm run admin -- list',
].join('\n');

/** Who runs the command, as the history says it. */
const BY = 'admin (ligne de commande)';

export interface AdminRun {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  now?: () => Date;
}

/**
 * The accounts' store on this machine; with REDIS_URL, shared with the running instances as the
 * server's is (a change is compared and set in Redis, so none undoes another: docs/content.md).
 */
async function openStore(env: AdminRun['env']): Promise<{ content: ContentStore; close: () => Promise<void> }> {
  const dir = setting(env, 'CONTENT_DIR') ?? join(SERVER_DIR, '.content');
  const local = createContentStore({ dir, seeds: repositorySeeds() });
  const url = setting(env, 'REDIS_URL');
  if (url === undefined) return { content: local, close: () => Promise.resolve() };
  const secret = setting(env, 'SITE_SECRET');
  if (secret === undefined) throw new ConfigError('SITE_SECRET', 'manquant alors que REDIS_URL est défini');
  const warn = (message: string) => process.stderr.write(`${message}\n`);
  const shared = await connectShared(url, { warn }, { secret });
  return { content: await shareContent(local, shared.content, { warn }, secret), close: () => shared.close() };
}

/**
 * The site's address for the link: --site, the editor's own origin (EDITOR_ORIGIN), SITE_ORIGIN, or
 * this machine's editor as `npm start` puts it (edition.localhost).
 */
function siteOf(given: string | undefined, env: AdminRun['env']): string {
  const text =
    given ??
    setting(env, 'EDITOR_ORIGIN') ??
    setting(env, 'SITE_ORIGIN') ??
    `http://edition.localhost:${String(setting(env, 'PORT'))}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AccountRefused(`--site : « ${text} » n’est pas une adresse (attendu : https://…)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AccountRefused(`--site : « ${text} » n’est pas une adresse http ou https`);
  }
  return url.origin;
}

/** Runs one command; its exit code (0 done, 2 refused, with the reason said). */
export async function runAdmin(
  args: readonly string[],
  { env, out, now = () => new Date() }: AdminRun,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { role: { type: 'string' }, residence: { type: 'string' }, site: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    out(`Arguments non compris (${error instanceof Error ? error.message : String(error)})\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const { role, residence, site } = parsed.values;
  let opened: Awaited<ReturnType<typeof openStore>> | null = null;
  try {
    opened = await openStore(env);
    const { content } = opened;
    switch (command) {
      case 'invite': {
        if (role === undefined || !(ROLES as readonly string[]).includes(role)) {
          throw new AccountRefused(`--role attend ${ROLES.join(', ')}`);
        }
        const origin = siteOf(site, env);
        const { token, invitation } = await invite(content, {
          role: role as Role,
          ...(residence === undefined ? {} : { residence }),
          by: BY,
          now,
        });
        out(
          `Invitation (${invitation.role}${invitation.residence === undefined ? '' : ` : ${invitation.residence}`}), valable ${String(INVITATION_DAYS)} jours, une seule fois :`,
        );
        out(`${origin}/admin/invitation#${token}`);
        return 0;
      }
      case 'revoke': {
        const [name] = rest;
        if (name === undefined) throw new AccountRefused('Quel compte révoquer ?');
        await revoke(content, name, BY, { now });
        out(`Compte « ${name} » révoqué : il ne peut plus se connecter.`);
        return 0;
      }
      case 'list': {
        const { accounts, invitations } = listAccounts(content, { now });
        out(accounts.length === 0 ? 'Aucun compte.' : 'Comptes :');
        for (const account of accounts) {
          const what = account.residence === undefined ? account.role : `${account.role} : ${account.residence}`;
          const state =
            account.revokedAt === undefined
              ? `${String(account.passkeys.length)} clé(s) d’accès`
              : `révoqué le ${account.revokedAt}`;
          out(`- ${account.name} (${what}), ${state}`);
        }
        out(invitations.length === 0 ? 'Aucune invitation en attente.' : 'Invitations en attente :');
        for (const invitation of invitations) {
          const what =
            invitation.residence === undefined ? invitation.role : `${invitation.role} : ${invitation.residence}`;
          out(`- ${what}, jusqu’au ${invitation.expiresAt}`);
        }
        return 0;
      }
      default:
        out(`${command === undefined ? 'Quelle commande ?' : `Commande inconnue : « ${command} »`}\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof AccountRefused || error instanceof ConfigError || error instanceof ContentUnwritable) {
      out(error.message);
      return 2;
    }
    throw error;
  } finally {
    await opened?.close();
  }
}

if (process.argv[1]?.endsWith('admin/cli.ts') === true) {
  runAdmin(process.argv.slice(2), { env: process.env, out: (line) => process.stdout.write(`${line}\n`) }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
