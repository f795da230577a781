/**
 * A proposal's number (docs/proposals.md, « Numbers »): its kind's letter, then six characters drawn
 * at random from Crockford's base 32 (digits and capitals without I, L, O and U, which read as
 * others): `E-7K3Q9M` for a show, `D-0H2XWA` for a demo. A number says nothing of how many came before
 * it, and stays short to quote on the phone. The numbers given before they were drawn (`E-2026-0042`)
 * are still read, so that a link sent then still works.
 */
export const NUMBER_PATTERN = /^[ED]-(?:[0-9A-HJKMNP-TV-Z]{6}|\d{4}-\d{4,9})$/;

/** The characters of a drawn number, in their order (each worth five bits). */
export const NUMBER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A number of the kind's letter, from 30 random bits (the caller draws them: `random` gives four bytes). */
export function drawNumber(letter: 'E' | 'D', random: Uint8Array): string {
  let bits = ((random[0] ?? 0) << 22) | ((random[1] ?? 0) << 14) | ((random[2] ?? 0) << 6) | ((random[3] ?? 0) >> 2);
  let text = '';
  for (let i = 0; i < 6; i += 1) {
    text = (NUMBER_ALPHABET[bits & 31] ?? '0') + text;
    bits >>>= 5;
  }
  return `${letter}-${text}`;
}
