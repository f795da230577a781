/*
 * A donation's amount as a visitor types it (docs/support.md, « The page »): euros, with a comma or
 * a point and at most two decimals (« 15 », « 12,50 », « 12.5 »), read to integer cents and held
 * to the bounds the server gives. The server checks again; this only says in French what is wrong
 * before anything is sent.
 */

/** Cents written as euros, in French: « 15 € », « 12,50 € ». */
export function euros(cents: number): string {
  const whole = cents % 100 === 0;
  return `${new Intl.NumberFormat('fr-FR', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(cents / 100)} €`;
}

/** What a visitor may type: digits, then a comma or a point and one or two digits; spaces ignored. */
const AMOUNT = /^(\d{1,7})(?:[.,](\d{1,2}))?$/;

/** The amount typed, in cents, or the French sentence saying why it cannot be given. */
export function readAmount(typed: string, bounds: { min: number; max: number }): number | { error: string } {
  const text = typed.replace(/[\s\u00a0\u202f€]/g, '');
  if (text === '') return { error: 'Indiquez un montant en euros.' };
  const found = AMOUNT.exec(text);
  if (found === null) {
    return { error: 'Le montant s’écrit en euros, avec au plus deux chiffres après la virgule : 15 ou 12,50.' };
  }
  const cents = Number(found[1]) * 100 + Number((found[2] ?? '').padEnd(2, '0'));
  if (cents < bounds.min || cents > bounds.max) {
    return { error: `Le montant doit être compris entre ${euros(bounds.min)} et ${euros(bounds.max)}.` };
  }
  return cents;
}
