import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { AccountRefused, digestOf, invitationOf, openInvitation, redeem, updateAccounts } from '../accounts';
import type { Accounts } from '../accounts-schema';
import type { Ephemeral } from '../ephemeral';
import { ApiHttpError } from '../../http/errors';
import { JSON_TYPE } from '../../api/plugins/representations';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { routeSchemas } from '../../api/schemas/routes';

/**
 * The passkey ceremonies (docs/content.md, « Signing in »): an invitation's link makes the account
 * and its first passkey (`/editor/invitation/options`, then `/editor/invitation`); afterwards the
 * passkey alone signs in (`/editor/signin/options`, then `/editor/signin`). Each ceremony's
 * challenge is kept 5 minutes and taken once; the session it ends with is editor.ts's.
 */

/** How long a passkey ceremony may take, from its options to its answer. */
const CEREMONY_MS = 5 * 60 * 1000;
const RP_NAME = 'Collectif Garonne';

/** What the ceremonies take from the editor's plugin (editor.ts). */
export interface PasskeyContext {
  /** The passkeys' relying party (docs/content.md, « The editor's origin »). */
  rpID: string;
  /** Where a ceremony's answer must come from: the editor's pages. */
  ceremonyOrigin: string;
  /** The ceremonies under way, in a bounded store of their own (in Redis with REDIS_URL). */
  ceremonies: Ephemeral;
  /** The sign-in's rate limit, as a route's config. */
  limited: { rateLimit: { max: number; timeWindow: number; keyGenerator: (request: FastifyRequest) => string } };
  /** A session started for the account, its cookie set on the reply. */
  startSession: (reply: FastifyReply, account: string) => Promise<void>;
}

/**
 * A passkey ceremony as kept for its 5 minutes (in Redis with REDIS_URL, so read back as input):
 * its challenge and, for a registration, the invitation's digest (never its token) and the name.
 */
const ceremonySchema = v.object({
  challenge: v.pipe(v.string(), v.regex(/^[\w-]{16,128}$/)),
  invitation: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))),
  name: v.optional(v.pipe(v.string(), v.maxLength(200))),
});
type Ceremony = v.InferOutput<typeof ceremonySchema>;

/** A kept ceremony read back, checked with its schema: null when absent, expired or malformed. */
function readCeremony(value: string | null): Ceremony | null {
  if (value === null) return null;
  try {
    const read = v.safeParse(ceremonySchema, JSON.parse(value));
    return read.success ? read.output : null;
  } catch {
    return null;
  }
}

/** The four routes of the ceremonies, on the editor's plugin. */
export function passkeyRoutes(
  instance: FastifyInstance,
  { rpID, ceremonyOrigin, ceremonies, limited, startSession }: PasskeyContext,
): void {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();

  function refused(request: FastifyRequest, error: unknown): never {
    if (error instanceof AccountRefused) {
      request.log.warn({ reason: error.message }, 'éditeur : invitation refusée');
      throw new ApiHttpError(400, 'invitation', error.message);
    }
    throw error;
  }

  app.post(
    '/editor/invitation/options',
    { config: { ...limited, editor: true }, schema: { body: routeSchemas.invitationOptions } },
    async (request, reply) => {
      const { token, name } = request.body;
      let invitation;
      try {
        invitation = openInvitation(app.content, token);
      } catch (error) {
        refused(request, error);
      }
      if ((app.content.current('accounts').data as Accounts).accounts.some((account) => account.name === name)) {
        throw new ApiHttpError(400, 'invitation', `Le nom « ${name} » est déjà pris.`);
      }
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userName: name,
        attestationType: 'none',
        authenticatorSelection: {
          residentKey: 'required',
          userVerification: invitation.role === 'admin' ? 'required' : 'preferred',
        },
      });
      const ceremony = randomBytes(16).toString('base64url');
      await ceremonies.set(
        `ceremony:${ceremony}`,
        JSON.stringify({ challenge: options.challenge, invitation: digestOf(token), name } satisfies Ceremony),
        CEREMONY_MS,
      );
      return reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send({ ceremony, options });
    },
  );

  app.post(
    '/editor/invitation',
    { config: { ...limited, editor: true }, schema: { body: routeSchemas.passkeyAnswer } },
    async (request, reply) => {
      const { ceremony, response } = request.body;
      const pending = readCeremony(await ceremonies.take(`ceremony:${ceremony}`));
      if (pending?.invitation === undefined || pending.name === undefined) {
        throw new ApiHttpError(400, 'ceremony', 'Cette demande a expiré : recommencez.');
      }
      let invitation;
      try {
        invitation = invitationOf(app.content, pending.invitation);
      } catch (error) {
        refused(request, error);
      }
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response: response as unknown as RegistrationResponseJSON,
          expectedChallenge: pending.challenge,
          expectedOrigin: ceremonyOrigin,
          expectedRPID: rpID,
          // An admin's passkey must verify its user (a PIN, a fingerprint), not only their presence.
          requireUserVerification: invitation.role === 'admin',
        });
      } catch (error) {
        request.log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'éditeur : clé d’accès refusée',
        );
        throw new ApiHttpError(400, 'passkey', 'Cette clé d’accès n’a pas pu être vérifiée : recommencez.');
      }
      if (!verification.verified)
        throw new ApiHttpError(400, 'passkey', 'Cette clé d’accès n’a pas pu être vérifiée : recommencez.');
      const { credential } = verification.registrationInfo;
      let account;
      try {
        account = await redeem(app.content, pending.invitation, {
          name: pending.name,
          passkey: {
            id: credential.id,
            publicKey: Buffer.from(credential.publicKey).toString('base64url'),
            counter: credential.counter,
            ...(credential.transports === undefined ? {} : { transports: credential.transports }),
            createdAt: new Date().toISOString(),
          },
        });
      } catch (error) {
        refused(request, error);
      }
      await startSession(reply, account.name);
      request.log.info({ account: account.name, role: account.role }, 'éditeur : compte créé');
      return reply
        .header('Cache-Control', 'no-store')
        .type(JSON_TYPE)
        .send({ name: account.name, role: account.role, residence: account.residence ?? null });
    },
  );

  app.post('/editor/signin/options', { config: { ...limited, editor: true } }, async (_request, reply) => {
    const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
    const ceremony = randomBytes(16).toString('base64url');
    await ceremonies.set(
      `ceremony:${ceremony}`,
      JSON.stringify({ challenge: options.challenge } satisfies Ceremony),
      CEREMONY_MS,
    );
    return reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send({ ceremony, options });
  });

  app.post(
    '/editor/signin',
    { config: { ...limited, editor: true }, schema: { body: routeSchemas.passkeyAnswer } },
    async (request, reply) => {
      const { ceremony, response } = request.body;
      const pending = readCeremony(await ceremonies.take(`ceremony:${ceremony}`));
      if (pending === null) throw new ApiHttpError(400, 'ceremony', 'Cette demande a expiré : recommencez.');
      const { challenge } = pending;
      const answer = response as unknown as AuthenticationResponseJSON;
      const { accounts } = app.content.current('accounts').data as Accounts;
      const owner = accounts.find((account) => account.passkeys.some((passkey) => passkey.id === answer.id));
      const passkey = owner?.passkeys.find((item) => item.id === answer.id);
      if (owner === undefined || passkey === undefined || owner.revokedAt !== undefined) {
        request.log.warn(
          { account: owner?.name ?? null },
          'éditeur : connexion refusée, clé inconnue ou compte révoqué',
        );
        throw new ApiHttpError(401, 'unknown_passkey', 'Cette clé d’accès n’ouvre aucun compte actif.');
      }
      let verification;
      try {
        verification = await verifyAuthenticationResponse({
          response: answer,
          expectedChallenge: challenge,
          expectedOrigin: ceremonyOrigin,
          expectedRPID: rpID,
          credential: {
            id: passkey.id,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.counter,
            ...(passkey.transports === undefined ? {} : { transports: passkey.transports }),
          },
          // An admin's passkey must verify its user; an editor's may only show their presence.
          requireUserVerification: owner.role === 'admin',
        });
      } catch (error) {
        request.log.warn(
          { account: owner.name, reason: error instanceof Error ? error.message : String(error) },
          'éditeur : connexion refusée',
        );
        throw new ApiHttpError(401, 'passkey', 'Cette clé d’accès n’a pas pu être vérifiée : recommencez.');
      }
      if (!verification.verified)
        throw new ApiHttpError(401, 'passkey', 'Cette clé d’accès n’a pas pu être vérifiée : recommencez.');
      const { newCounter } = verification.authenticationInfo;
      // Read again after the verification's wait, from the current accounts (another request or
      // instance may have changed them meanwhile): a revocation made since holds, and the new
      // counter is saved on the current version, compared and set, never over a newer one.
      try {
        await updateAccounts(app.content, owner.name, (present) => {
          const account = present.accounts.find((item) => item.name === owner.name);
          if (account === undefined || account.revokedAt !== undefined) {
            throw new AccountRefused('Ce compte a été révoqué.');
          }
          const known = account.passkeys.find((item) => item.id === passkey.id);
          // The counter only grows: a copied passkey that answers with an older one is refused next time.
          if (known === undefined || newCounter <= known.counter) return { next: present, result: undefined };
          return {
            next: {
              ...present,
              accounts: present.accounts.map((item) =>
                item.name === owner.name
                  ? {
                      ...item,
                      passkeys: item.passkeys.map((key) =>
                        key.id === passkey.id ? { ...key, counter: newCounter } : key,
                      ),
                    }
                  : item,
              ),
            },
            result: undefined,
          };
        });
      } catch (error) {
        if (!(error instanceof AccountRefused)) throw error;
        request.log.warn(
          { account: owner.name },
          'éditeur : connexion refusée, compte révoqué pendant la vérification',
        );
        throw new ApiHttpError(401, 'unknown_passkey', 'Cette clé d’accès n’ouvre aucun compte actif.');
      }
      await startSession(reply, owner.name);
      request.log.info({ account: owner.name }, 'éditeur : connexion');
      return reply
        .header('Cache-Control', 'no-store')
        .type(JSON_TYPE)
        .send({ name: owner.name, role: owner.role, residence: owner.residence ?? null });
    },
  );
}
