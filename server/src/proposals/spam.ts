import { createHash, randomBytes } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Challenge } from 'altcha-lib/v1/types';
import { sealer } from '../instances/seal';

/**
 * Spam without a third party (docs/proposals.md, « Spam »): a proof of work the browser solves
 * (ALTCHA, its widget and `altcha-lib`: no tracking, no outside service), used once; a hidden field
 * that must stay empty; a minimum time to fill the form, read from a signed `startedAt` used once; and
 * bounds per network and day (store.ts). The form sent without JavaScript, which cannot solve the
 * proof of work, carries instead a single-use token in a cookie the form's page sets (SameSite=Strict:
 * never sent with another site's post), which also says when the page was given; its bound per
 * network is stricter.
 */

/** How long a challenge may be solved and sent (ms). */
export const CHALLENGE_MS = 10 * 60_000;
/**
 * The work: the solution is a number below this, found by trying each (half of it on average). 50,000
 * SHA-256 hashes take well under a second on a phone (docs/proposals.md, « Spam »).
 */
export const CHALLENGE_MAX_NUMBER = 50_000;
/** Less than this between the page and the post: a robot (ms). */
export const MIN_FILL_MS = 3_000;
/** More than this: the page is too old, reloaded first (ms). */
export const MAX_FILL_MS = 24 * 3600_000;
/** The hidden field a robot fills and a person never sees (`site`, a name robots like to fill). */
export const HONEYPOT = 'site';

const STARTED = 'proposals:startedAt';
const FORM_TOKEN = 'proposals:form';
/** The form's cookie: its single-use token, for the API's proposal routes only. */
export const FORM_COOKIE = 'proposition';

export interface Spam {
  /** A new challenge for the ALTCHA widget, and a `startedAt` for the form. */
  challenge(): Promise<Challenge & { startedAt: string }>;
  /** A signed `startedAt` of now, for a form rendered by the server (the page without JavaScript). */
  startedAt(): string;
  /** Whether `startedAt` is ours and old enough: 'ok', 'fast' (under MIN_FILL_MS) or 'bad'. */
  filled(startedAt: unknown): 'ok' | 'fast' | 'bad';
  /** A new token for the form without JavaScript (its cookie's value): random, signed, with the time. */
  formToken(): string;
  /** Whether a form token is ours and old enough, as `filled`; with the name it is used once under. */
  formFilled(token: unknown): { verdict: 'ok' | 'fast' | 'bad'; name: string };
  /**
   * Checks an ALTCHA payload (base64 JSON, as the widget posts it): its signature (made with this
   * key), its solution, its expiry; then `claim` marks it used. 'ok', 'bad', 'expired' or 'used'.
   */
  verify(
    payload: unknown,
    use: (name: string, ms: number) => Promise<boolean>,
  ): Promise<'ok' | 'bad' | 'expired' | 'used'>;
}

interface Payload {
  algorithm: 'SHA-1' | 'SHA-256' | 'SHA-512';
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

const payloadOf = (value: unknown): Payload | null => {
  if (typeof value !== 'string' || value.length > 2000) return null;
  try {
    const read = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Partial<Payload> | null;
    if (
      read === null ||
      typeof read !== 'object' ||
      read.algorithm !== 'SHA-256' ||
      typeof read.challenge !== 'string' ||
      typeof read.number !== 'number' ||
      typeof read.salt !== 'string' ||
      typeof read.signature !== 'string'
    ) {
      return null;
    }
    return read as Payload;
  } catch {
    return null;
  }
};

/** `now` is the server's clock (the fill time); ALTCHA's expiry is read on the real one. */
export function createSpam(secret: string, now: () => number): Spam {
  // A key of its own, derived from SITE_SECRET: the challenges' HMAC is not the seals'.
  const hmacKey = createHash('sha256').update(`altcha\n${secret}`).digest('base64url');
  const seals = sealer(secret);
  // The instant, and a nonce: two visitors who begin in the same millisecond get two startedAt, each
  // used once (a startedAt of the instant alone would be one for both).
  const startedAt = () => seals.seal(STARTED, `${String(now())}.${randomBytes(16).toString('base64url')}`);
  const age = (took: number): 'ok' | 'fast' | 'bad' =>
    took < 0 || took > MAX_FILL_MS ? 'bad' : took < MIN_FILL_MS ? 'fast' : 'ok';
  return {
    async challenge() {
      const made = await createChallenge({
        hmacKey,
        maxNumber: CHALLENGE_MAX_NUMBER,
        algorithm: 'SHA-256',
        expires: new Date(Date.now() + CHALLENGE_MS),
      });
      return { ...made, startedAt: startedAt() };
    },
    startedAt,
    filled(value) {
      if (typeof value !== 'string' || value.length > 200) return 'bad';
      const text = seals.open(STARTED, value);
      // Those given before the nonce (the instant alone) are still read until they expire.
      const read = text === null ? null : /^(\d{1,15})(?:\.[\w-]{22})?$/.exec(text);
      if (read === null) return 'bad';
      return age(now() - Number(read[1]));
    },
    formToken: () => seals.seal(FORM_TOKEN, `${randomBytes(16).toString('base64url')}.${String(now())}`),
    formFilled(value) {
      const text = typeof value === 'string' && value.length <= 200 ? seals.open(FORM_TOKEN, value) : null;
      const read = text === null ? null : /^([\w-]{22})\.(\d{1,15})$/.exec(text);
      if (read === null) return { verdict: 'bad', name: '' };
      return { verdict: age(now() - Number(read[2])), name: `form:${read[1] ?? ''}` };
    },
    async verify(value, claim) {
      const payload = payloadOf(value);
      if (payload === null) return 'bad';
      if (!(await verifySolution(payload, hmacKey, false))) return 'bad';
      const expires = Number(extractParams(payload).expires ?? '0') * 1000;
      const left = expires - Date.now();
      if (!Number.isFinite(left) || left <= 0) return 'expired';
      // Kept until it expires: after that it is refused for its age.
      return (await claim(createHash('sha256').update(payload.signature).digest('base64url'), left + 60_000))
        ? 'ok'
        : 'used';
    },
  };
}
