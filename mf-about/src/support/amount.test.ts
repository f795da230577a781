import { euros, readAmount } from './amount';

const bounds = { min: 100, max: 100_000 };
// French writes thousands with a narrow no-break space.
const BOUNDS_SAID = 'Le montant doit être compris entre 1 € et 1\u202f000 €.';

describe('a donation typed in euros', () => {
  it('reads euros with a comma or a point into cents', () => {
    expect(readAmount('15', bounds)).toBe(1500);
    expect(readAmount('12,50', bounds)).toBe(1250);
    expect(readAmount('12.5', bounds)).toBe(1250);
    expect(readAmount(' 1 000 € ', bounds)).toBe(100_000);
  });

  it('refuses what is not an amount, in French', () => {
    for (const typed of ['abc', '12,345', '-5', '1e3', '12,', '0x10', '15 euros']) {
      expect(readAmount(typed, bounds)).toEqual({
        error: 'Le montant s’écrit en euros, avec au plus deux chiffres après la virgule : 15 ou 12,50.',
      });
    }
    expect(readAmount('', bounds)).toEqual({ error: 'Indiquez un montant en euros.' });
  });

  it('holds the amount to the bounds the site gives', () => {
    expect(readAmount('0,99', bounds)).toEqual({ error: BOUNDS_SAID });
    expect(readAmount('1000,01', bounds)).toEqual({ error: BOUNDS_SAID });
    expect(readAmount('9999999', bounds)).toEqual({ error: BOUNDS_SAID });
  });

  it('writes cents as French euros', () => {
    expect(euros(1500)).toBe('15 €');
    expect(euros(1250)).toBe('12,50 €');
    expect(euros(100_000)).toBe('1\u202f000 €');
  });
});
