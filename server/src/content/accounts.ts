import { createHash, randomBytes } from 'node:crypto';
import type { Account, Accounts, Invitation } from './accounts-schema';
import type { Role } from './editors';
import { ContentConflict, type ContentStore } from './store';

/**
 * Invitations and accounts (docs/content.md, « Accounts »): an admin invites with
 * `npm run admin -- invite`, which gives a one-time link valid 7 days; the volunteer who opens it
 * makes their account with a passkey. An account can be revoked; it then signs in no more.
 */

export const INVITATION_DAYS = 7;

/** Why an invitation or an account change is refused, in French. */
export class AccountRefused extends Error {}

export const digestOf = (token: string): string => createHash('sha256').update(token).digest('hex');

interface Clock {
  now?: () => Date;
}

/**
 * Applies `change` to the accounts and saves them, based on the version the change was made from:
 * when another process or instance saved in between (the command line and the server write the
 * same accounts), the change is made again from the new current version, so none is undone.
 */
export async function updateAccounts<T>(
  store: ContentStore,
  by: string,
  change: (accounts: Accounts) => { next: Accounts; result: T },
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const present = store.current('accounts');
    const { next, result } = change(structuredClone(present.data as Accounts));
    try {
      await store.save('accounts', next, { by, basedOn: present.id });
      return result;
    } catch (error) {
      if (!(error instanceof ContentConflict) || attempt >= 3) throw error;
    }
  }
}

export interface InviteOptions extends Clock {
  role: Role;
  residence?: string;
  by: string;
}

/** A new invitation: its token (said once, never kept) and what is kept of it. */
export async function invite(store: ContentStore, { role, residence, by, now = () => new Date() }: InviteOptions) {
  if (role === 'residence') {
    if (residence === undefined)
      throw new AccountRefused('--residence manque : quelle résidence ce compte modifiera-t-il ?');
    const known = (store.current('residences').data as { id: string }[]).some(({ id }) => id === residence);
    if (!known) throw new AccountRefused(`Résidence inconnue : « ${residence} »`);
  } else if (residence !== undefined) {
    throw new AccountRefused('--residence ne va qu’avec --role residence');
  }
  const token = randomBytes(32).toString('base64url');
  const at = now();
  const invitation: Invitation = {
    digest: digestOf(token),
    role,
    ...(residence === undefined ? {} : { residence }),
    createdAt: at.toISOString(),
    expiresAt: new Date(at.getTime() + INVITATION_DAYS * 24 * 3600 * 1000).toISOString(),
    by,
  };
  await updateAccounts(store, by, (accounts) => ({
    next: { ...accounts, invitations: [...accounts.invitations, invitation] },
    result: undefined,
  }));
  return { token, invitation };
}

/** The invitation a token opens, if it may still be used; refused in French otherwise. */
export function openInvitation(store: ContentStore, token: string, clock: Clock = {}): Invitation {
  return invitationOf(store, digestOf(token), clock);
}

/**
 * The invitation of a token's digest (what a passkey ceremony keeps, never the token itself), if it
 * may still be used; refused in French otherwise.
 */
export function invitationOf(store: ContentStore, digest: string, { now = () => new Date() }: Clock = {}): Invitation {
  const invitation = (store.current('accounts').data as Accounts).invitations.find((item) => item.digest === digest);
  if (invitation === undefined) throw new AccountRefused('Cette invitation n’existe pas.');
  if (invitation.usedAt !== undefined)
    throw new AccountRefused('Cette invitation a déjà servi : demandez-en une nouvelle.');
  if (Date.parse(invitation.expiresAt) <= now().getTime()) {
    throw new AccountRefused('Cette invitation a expiré : demandez-en une nouvelle.');
  }
  return invitation;
}

export interface RedeemOptions extends Clock {
  name: string;
  passkey: Account['passkeys'][number];
}

/**
 * Makes the invitation's account with its first passkey; the invitation (given by its token's
 * digest, `digestOf`) is then used.
 */
export function redeem(
  store: ContentStore,
  digest: string,
  { name, passkey, now = () => new Date() }: RedeemOptions,
): Promise<Account> {
  return updateAccounts(store, name, (accounts) => {
    const invitation = invitationOf(store, digest, { now });
    if (accounts.accounts.some((account) => account.name === name)) {
      throw new AccountRefused(`Le nom « ${name} » est déjà pris.`);
    }
    const at = now().toISOString();
    const account: Account = {
      name,
      role: invitation.role,
      ...(invitation.residence === undefined ? {} : { residence: invitation.residence }),
      createdAt: at,
      invitedBy: invitation.by,
      passkeys: [passkey],
    };
    return {
      next: {
        accounts: [...accounts.accounts, account],
        invitations: accounts.invitations.map((item) =>
          item.digest === invitation.digest ? { ...item, usedAt: at, usedBy: name } : item,
        ),
      },
      result: account,
    };
  });
}

/** Revokes an account: it signs in no more, and its sessions end. */
export function revoke(
  store: ContentStore,
  name: string,
  by: string,
  { now = () => new Date() }: Clock = {},
): Promise<Account> {
  return updateAccounts(store, by, (accounts) => {
    const account = accounts.accounts.find((item) => item.name === name);
    if (account === undefined) throw new AccountRefused(`Compte inconnu : « ${name} »`);
    if (account.revokedAt !== undefined) throw new AccountRefused(`Le compte « ${name} » est déjà révoqué.`);
    const revoked = { ...account, revokedAt: now().toISOString() };
    return {
      next: { ...accounts, accounts: accounts.accounts.map((item) => (item.name === name ? revoked : item)) },
      result: revoked,
    };
  });
}

/** An account that may sign in, or null. */
export function activeAccount(store: ContentStore, name: string): Account | null {
  const account = (store.current('accounts').data as Accounts).accounts.find((item) => item.name === name);
  return account === undefined || account.revokedAt !== undefined ? null : account;
}

/** Every account, and the invitations still open (neither used nor expired). */
export function listAccounts(store: ContentStore, { now = () => new Date() }: Clock = {}) {
  const { accounts, invitations } = store.current('accounts').data as Accounts;
  const open = invitations.filter(
    (invitation) => invitation.usedAt === undefined && Date.parse(invitation.expiresAt) > now().getTime(),
  );
  return { accounts, invitations: open };
}
