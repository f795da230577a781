import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AccountRefused,
  activeAccount,
  digestOf,
  invite,
  listAccounts,
  openInvitation,
  redeem,
  revoke,
} from './accounts';
import type { Accounts } from './accounts-schema';
import { repositorySeeds } from './kinds';
import { createContentStore, type ContentStore } from './store';

let dir: string;
let store: ContentStore;
let clock: number;
const now = () => new Date(clock);
const DAY = 24 * 3600 * 1000;
const passkey = { id: 'Y2xl', publicKey: 'cHVibGlj', counter: 0, createdAt: '2026-11-25T10:00:00.000Z' };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'comptes-'));
  clock = Date.parse('2026-11-25T10:00:00Z');
  store = createContentStore({ dir, seeds: repositorySeeds(), now });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const refusal = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof AccountRefused) return error.message;
    throw error;
  }
  throw new Error('rien refusé');
};

describe('invitations and accounts', () => {
  it('keeps only a digest of the token, valid 7 days, and makes the account it was for', async () => {
    const { token, invitation } = await invite(store, { role: 'residence', residence: 'axonberg', by: 'camille', now });
    expect(invitation).toMatchObject({
      role: 'residence',
      residence: 'axonberg',
      expiresAt: '2026-12-02T10:00:00.000Z',
    });
    expect(JSON.stringify(store.current('accounts'))).not.toContain(token);
    expect(invitation.digest).toBe(digestOf(token));

    clock += 6 * DAY;
    const account = await redeem(store, digestOf(token), { name: 'axonberg', passkey, now });
    expect(account).toMatchObject({ name: 'axonberg', role: 'residence', residence: 'axonberg', invitedBy: 'camille' });
    expect(activeAccount(store, 'axonberg')?.passkeys).toEqual([passkey]);
    expect(listAccounts(store, { now }).invitations).toEqual([]);
  });

  it('refuses a reused, an expired and an unknown invitation, in French', async () => {
    const first = await invite(store, { role: 'label', by: 'camille', now });
    await redeem(store, digestOf(first.token), { name: 'yanis', passkey, now });
    expect(await refusal(() => redeem(store, digestOf(first.token), { name: 'autre', passkey, now }))).toBe(
      'Cette invitation a déjà servi : demandez-en une nouvelle.',
    );
    const second = await invite(store, { role: 'about', by: 'camille', now });
    clock += 7 * DAY;
    expect(await refusal(() => openInvitation(store, second.token, { now }))).toBe(
      'Cette invitation a expiré : demandez-en une nouvelle.',
    );
    expect(await refusal(() => openInvitation(store, 'inventee', { now }))).toBe('Cette invitation n’existe pas.');
  });

  it('checks what an invitation is for', async () => {
    expect(await refusal(() => invite(store, { role: 'residence', by: 'camille', now }))).toMatch(
      /^--residence manque/,
    );
    expect(await refusal(() => invite(store, { role: 'residence', residence: 'personne', by: 'camille', now }))).toBe(
      'Résidence inconnue : « personne »',
    );
    expect(await refusal(() => invite(store, { role: 'label', residence: 'axonberg', by: 'camille', now }))).toBe(
      '--residence ne va qu’avec --role residence',
    );
    const { token } = await invite(store, { role: 'admin', by: 'camille', now });
    await redeem(store, digestOf(token), { name: 'camille', passkey, now });
    const again = await invite(store, { role: 'about', by: 'camille', now });
    expect(await refusal(() => redeem(store, digestOf(again.token), { name: 'camille', passkey, now }))).toBe(
      'Le nom « camille » est déjà pris.',
    );
  });

  it('revokes an account: it is active no more, and the history says who did it', async () => {
    const { token } = await invite(store, { role: 'about', by: 'camille', now });
    await redeem(store, digestOf(token), { name: 'lea', passkey, now });
    await revoke(store, 'lea', 'camille', { now });
    expect(activeAccount(store, 'lea')).toBeNull();
    expect(store.history('accounts')[0]?.by).toBe('camille');
    expect(await refusal(() => revoke(store, 'lea', 'camille', { now }))).toBe('Le compte « lea » est déjà révoqué.');
    expect(await refusal(() => revoke(store, 'personne', 'camille', { now }))).toBe('Compte inconnu : « personne »');
  });

  it('is never served to visitors', () => {
    expect((store.current('accounts').data as Accounts).accounts).toEqual([]);
  });

  it('opens an invitation `npm run admin` made a moment ago, and refuses an account it revoked at once', async () => {
    // The server's store and the command's, on one folder: the server has just read the accounts.
    const cli = createContentStore({ dir, seeds: repositorySeeds(), now });
    const first = await invite(cli, { role: 'about', by: 'admin (commande)', now });
    await redeem(store, digestOf(first.token), { name: 'camille', passkey, now });
    expect(activeAccount(store, 'camille')).not.toBeNull();

    const { token } = await invite(cli, { role: 'about', by: 'admin (commande)', now });
    expect(openInvitation(store, token, { now })).toMatchObject({ role: 'about' });
    await revoke(cli, 'camille', 'admin (commande)', { now });
    expect(activeAccount(store, 'camille')).toBeNull();
  });
});
