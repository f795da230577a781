/*
 * ALTCHA's proof of work, v1 (docs/proposals.md, « Spam »), solved in the page: the number n,
 * 0 ≤ n ≤ maxnumber, whose SHA-256 of `salt + n` in hex is the challenge. The same search as
 * `altcha-lib`'s `solveChallenge`, with the browser's own SubtleCrypto, in batches so that the
 * digests run side by side. Loaded lazily by the proposal pages alone, on the form's first focus.
 */

import type { ProposalChallenge } from './api';

const hex = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

const BATCH = 250;

/** The number, or null when none up to `maxnumber` fits (a forged or broken challenge). */
export async function solveNumber(made: ProposalChallenge, signal?: AbortSignal): Promise<number | null> {
  const encoder = new TextEncoder();
  const name = made.algorithm.toUpperCase();
  for (let start = 0; start <= made.maxnumber; start += BATCH) {
    if (signal?.aborted === true) return null;
    const end = Math.min(made.maxnumber, start + BATCH - 1);
    const numbers = Array.from({ length: end - start + 1 }, (_, i) => start + i);
    const digests = await Promise.all(
      numbers.map((n) => crypto.subtle.digest(name, encoder.encode(`${made.salt}${String(n)}`))),
    );
    const found = digests.findIndex((digest) => hex(digest) === made.challenge);
    if (found >= 0) return start + found;
  }
  return null;
}

/** The payload the server verifies (`altcha`): the challenge and its number, base64 JSON. */
export async function solvePayload(made: ProposalChallenge, signal?: AbortSignal): Promise<string | null> {
  const begun = Date.now();
  const number = await solveNumber(made, signal);
  if (number === null) return null;
  const payload = {
    algorithm: made.algorithm,
    challenge: made.challenge,
    number,
    salt: made.salt,
    signature: made.signature,
    took: Date.now() - begun,
  };
  return btoa(JSON.stringify(payload));
}
