import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { normalizeIP } from '@fastify/rate-limit';
import * as v from 'valibot';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '@collectif/shared';
import { activeAccount } from '../accounts';
import type { Editor } from '../editors';
import { memoryEphemeral, redisEphemeral, type Ephemeral } from '../ephemeral';
import { sealer } from '../../instances/seal';
import { ApiHttpError } from '../../http/errors';
import { JSON_TYPE } from '../../api/plugins/representations';
import type { ValibotJsonTypeProvider } from '../../api/schemas/provider';
import { passkeyRoutes } from './editor-passkeys';

/**
 * Volunteers sign in with a passkey (docs/content.md, « Signing in »): an invitation's link makes
 * the account and its first passkey; afterwards the passkey alone signs in. A session is an id in
 * an HttpOnly, Secure, SameSite=Strict cookie, kept on the server (in Redis with REDIS_URL) under
 * a keyed hash of the id (SITE_SECRET), ended by signing out, by revoking the account, after
 * EDITOR_IDLE_MIN without a request, or 12 hours after its sign-in. An admin's passkey must verify
 * its user (a PIN, a fingerprint). Attempts are rate-limited; every sign-in, refusal and sign-out
 * is logged with the account. This file keeps the sessions and the admin's token; the passkey
 * ceremonies that start a session are editor-passkeys.ts.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The editor a request comes from (a session, or the admin's token); 401 otherwise. */
    editorOf(request: FastifyRequest): Promise<Editor>;
    /**
     * Whether the request carries the admin's token (ADMIN_TOKEN). A client that sent wrong ones
     * is answered 429 past the sign-in's limit a minute (docs/content.md, « Accounts »).
     */
    adminToken(request: FastifyRequest): Promise<boolean>;
  }
}

export const SESSION_COOKIE = 'collectif_editeur';
/** Without Redis: the sessions kept at most (far above the collective's editors)… */
export const SESSIONS_MAX = 1000;
/** …and, in a store of their own, the ceremonies under way (the oldest forgotten past it). */
export const CEREMONIES_MAX = 10_000;

export interface EditorOptions {
  /** The site's public origin: the passkeys' relying party is its host name. */
  siteOrigin: string;
  /**
   * The editor's own origin (EDITOR_ORIGIN), where the ceremonies run: the public host or a sub-domain
   * of it, so that the relying party stays the public host and every passkey made so far works.
   */
  editorOrigin?: string | null;
  idleMs: number;
  /** How long a session lasts after its sign-in, however busy (12 h). */
  maxAgeMs: number;
  /** Sign-in attempts a client may make per minute. */
  attemptsPerMinute: number;
}

/** A session as kept: its account and when it signed in (`name\nms`). */
const sessionValue = (account: string, since: number): string => `${account}\n${String(since)}`;

/** A kept session as the store gives it back (Redis is read as input): `name\nms`. */
const keptSession = v.pipe(
  v.string(),
  v.regex(/^[^\n]{1,200}\n\d{1,15}$/),
  v.transform((value) => {
    const [account = '', since = ''] = value.split('\n');
    return { account, since: Number(since) };
  }),
);

/** A count of wrong tokens as the store gives it back. */
const keptCount = v.pipe(v.string(), v.regex(/^\d{1,6}$/), v.transform(Number));

/** A kept session read back, checked with its schema: null when absent or malformed. */
function readSession(value: string | null): { account: string; since: number } | null {
  const read = v.safeParse(keptSession, value);
  return read.success ? read.output : null;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

const editor: FastifyPluginCallback<EditorOptions> = (
  instance,
  { siteOrigin, editorOrigin = null, idleMs, maxAgeMs, attemptsPerMinute },
  done,
) => {
  const app = instance.withTypeProvider<ValibotJsonTypeProvider>();
  /** Where a ceremony's answer must come from: the editor's pages. */
  const ceremonyOrigin = editorOrigin ?? siteOrigin;
  const siteHost = new URL(siteOrigin).hostname;
  // The passkeys' relying party: the public host, which the editor's sub-domain may name, so that
  // every passkey made before the editor moved keeps working. A host of one label (`localhost`, a
  // site on this machine) has no registrable domain, and a browser lets no sub-domain name it: there
  // the relying party is the editor's own host.
  const rpID = editorOrigin !== null && !siteHost.includes('.') ? new URL(editorOrigin).hostname : siteHost;
  const secret = app.apiConfig.siteSecret;
  const seals = sealer(secret);
  /**
   * In Redis (REDIS_URL), each value under its name's keyed hash and sealed for that key with
   * SITE_SECRET (content/ephemeral.ts): a ceremony, a session or a count written there by whoever
   * has Redis's password is refused, said in the log as `what`.
   */
  const inRedis = (what: string, alone: Ephemeral): Ephemeral =>
    app.shared === null
      ? alone
      : redisEphemeral(app.shared.redis, {
          seals,
          what,
          log: {
            warn: (message) => {
              app.log.warn(message);
            },
          },
        });
  // Sessions and ceremonies apart: without Redis, each in its own bounded store, so that a flood of
  // ceremonies (anyone may start one) cannot push a signed-in editor's session out.
  const sessions = inRedis('session d’éditeur', memoryEphemeral(SESSIONS_MAX));
  const ceremonies = inRedis('cérémonie de clé d’accès', memoryEphemeral(CEREMONIES_MAX));
  /** Where a session is kept: a keyed hash of its id, so whoever reads the store cannot use it. */
  const sessionKey = (id: string) => `session:${createHmac('sha256', secret).update(id).digest('base64url')}`;
  /** Wrong admin tokens counted in this instance: without Redis, or while it is away. */
  const localCounts = memoryEphemeral(10_000);
  const counters = inRedis('compte de jetons d’administration refusés', localCounts);
  const adminToken = app.apiConfig.adminToken;
  const expectedAdmin = adminToken === null ? null : digest(`Bearer ${adminToken}`);
  // The sign-in's attempts are @fastify/rate-limit's counters, INCR'd in Redis by its script: they
  // cannot carry a signature, so each is kept under a keyed hash of the client's address (grouped as
  // the plugin groups it: an IPv6 /64), which whoever writes to Redis cannot aim at an address. A
  // forged count can only refuse sooner (429), never let an answer through: every invitation, passkey
  // and challenge is checked whatever the count (docs/deploy.md, « What the site takes from Redis »).
  const limited = {
    rateLimit: {
      max: attemptsPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => seals.sign('limite:editeur', Buffer.from(normalizeIP(request.ip))),
    },
  };

  const secure = siteOrigin.startsWith('https:') || rpID === 'localhost';
  // On the editor's own origin over https the session's cookie is `__Host-`: the browser keeps it only if it is Secure, for `/`
  // and without a Domain, so no sibling host can set or shadow it (docs/content.md, « The editor's
  // origin »).
  const sessionCookie = editorOrigin?.startsWith('https:') === true ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
  // A session cookie (no Max-Age): it goes with the browser; the server ends the session sooner
  // when it is idle or too old. Max-Age=0 deletes it.
  const cookie = (value: string, maxAge?: number) =>
    `${sessionCookie}=${value}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}${maxAge === undefined ? '' : `; Max-Age=${String(maxAge)}`}`;

  async function startSession(reply: FastifyReply, account: string): Promise<void> {
    const id = randomBytes(32).toString('base64url');
    await sessions.set(sessionKey(id), sessionValue(account, Date.now()), idleMs);
    reply.header('Set-Cookie', cookie(id));
  }

  /**
   * The admin's token, checked: a wrong one counts against the client's address (shared by the
   * instances through the store), is logged without itself, and past `attemptsPerMinute` of them
   * in a minute every token from there is answered 429, the right one too, until the minute ends.
   */
  async function hasAdminToken(request: FastifyRequest): Promise<boolean> {
    const given = request.headers.authorization;
    if (given === undefined || expectedAdmin === null) return false;
    const key = `wrong-token:${request.ip}`;
    // Counted where the instances share it; while Redis is away, in this instance (the token is
    // still checked, and a right one still lets its request through).
    const counts = async <T>(apply: (counter: Ephemeral) => Promise<T>): Promise<T> => {
      try {
        return await apply(counters);
      } catch {
        return apply(localCounts);
      }
    };
    // Checked as any value from Redis: a malformed count is none.
    const read = v.safeParse(keptCount, await counts((counter) => counter.get(key)));
    const wrong = read.success ? read.output : 0;
    if (wrong >= attemptsPerMinute) {
      throw new ApiHttpError(
        429,
        'too_many_attempts',
        'Trop de jetons refusés depuis cette adresse : réessayez dans une minute.',
      );
    }
    if (timingSafeEqual(digest(given), expectedAdmin)) return true;
    await counts((counter) => counter.set(key, String(wrong + 1), 60_000));
    request.log.warn({ url: request.url, wrong: wrong + 1 }, 'jeton d’administration refusé');
    return false;
  }

  app.decorate('adminToken', hasAdminToken);

  /** The editor a request comes from, or null (signed out, an ended session, a revoked account). */
  async function editorOrNull(request: FastifyRequest): Promise<Editor | null> {
    if (await hasAdminToken(request)) return { account: 'admin (jeton)', role: 'admin' };
    const id = readCookie(sessionCookie, request.headers.cookie ?? '');
    const kept = id === null || id === '' ? null : readSession(await sessions.get(sessionKey(id)));
    if (id === null || kept === null) return null;
    if (Date.now() - kept.since > maxAgeMs) {
      await sessions.delete(sessionKey(id));
      return null;
    }
    const account = activeAccount(app.content, kept.account);
    if (account === null) return null;
    // Each request renews the session's idle time, never its age.
    await sessions.set(sessionKey(id), sessionValue(account.name, kept.since), idleMs);
    return {
      account: account.name,
      role: account.role,
      ...(account.residence === undefined ? {} : { residence: account.residence }),
    };
  }

  app.decorate('editorOf', async (request: FastifyRequest): Promise<Editor> => {
    const editor = await editorOrNull(request);
    if (editor === null) {
      request.log.warn({ url: request.url }, 'éditeur : requête refusée, sans session');
      throw new ApiHttpError(401, 'unauthorized', 'Connectez-vous pour modifier le contenu.');
    }
    return editor;
  });

  passkeyRoutes(app, { rpID, ceremonyOrigin, ceremonies, limited, startSession });

  // Who is signed in, or null: being signed out is an answer here, not a refusal (the editor's page
  // asks at each visit; a 401 would be an error in the browser's console and a warning in the log).
  app.get('/editor/me', { config: { editor: true } }, async (request, reply) => {
    const who = await editorOrNull(request);
    return reply
      .header('Cache-Control', 'no-store')
      .type(JSON_TYPE)
      .send(
        who === null ? 'null' : JSON.stringify({ name: who.account, role: who.role, residence: who.residence ?? null }),
      );
  });

  app.post('/editor/signout', { config: { editor: true } }, async (request, reply) => {
    const id = readCookie(sessionCookie, request.headers.cookie ?? '');
    if (id !== null && id !== '') {
      const kept = readSession(await sessions.get(sessionKey(id)));
      await sessions.delete(sessionKey(id));
      request.log.info({ account: kept?.account ?? null }, 'éditeur : déconnexion');
    }
    return reply.header('Set-Cookie', cookie('', 0)).code(204).send();
  });
  done();
};

export const editorPlugin = fp(editor, { name: 'editor' });
