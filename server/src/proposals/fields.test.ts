import { readFields, readNote } from './fields';

// The public's text in a proposal (docs/proposals.md, « What is kept »): the invisible marks that
// make a text read otherwise than it is written, or hide a line break, are refused in every field
// with the field's French sentence, as the control characters are (inside a text: at its edges the
// trim drops U+FEFF and the separators, and they are not kept); what a name or a message may
// honestly hold is kept.

const show = (extra: Record<string, unknown> = {}) => ({
  name: 'Les Ondes Lentes',
  makers: 'Camille et Sacha',
  style: 'ambient, field recordings',
  links: ['https://soundcloud.com/ondes-lentes/un', 'https://www.mixcloud.com/ondes-lentes/deux/'],
  when: 'un mardi sur deux, en soirée',
  email: 'camille@example.org',
  message: 'Nous aimerions une heure par mois.',
  ...extra,
});

/** Each refused mark, by its name. */
const MARKS: [string, string][] = [
  ['U+200E LEFT-TO-RIGHT MARK', '\u200e'],
  ['U+200F RIGHT-TO-LEFT MARK', '\u200f'],
  ['U+061C ARABIC LETTER MARK', '\u061c'],
  ['U+2028 LINE SEPARATOR', '\u2028'],
  ['U+2029 PARAGRAPH SEPARATOR', '\u2029'],
  ['U+2060 WORD JOINER', '\u2060'],
  ['U+2061 FUNCTION APPLICATION', '\u2061'],
  ['U+2062 INVISIBLE TIMES', '\u2062'],
  ['U+2063 INVISIBLE SEPARATOR', '\u2063'],
  ['U+2064 INVISIBLE PLUS', '\u2064'],
  ['U+FEFF ZERO WIDTH NO-BREAK SPACE', '\ufeff'],
  // Refused before, still refused.
  ['U+202E RIGHT-TO-LEFT OVERRIDE', '\u202e'],
  ['U+2067 RIGHT-TO-LEFT ISOLATE', '\u2067'],
];

describe('a proposal’s fields', () => {
  it('are read when nothing is refused', () => {
    expect(readFields('emission', show())).toMatchObject({ ok: true, fields: { name: 'Les Ondes Lentes' } });
  });

  it.each(MARKS)('refuse %s in a show’s name, with the field’s sentence', (_name, mark) => {
    expect(readFields('emission', show({ name: `Les Ondes${mark} Lentes` }))).toEqual({
      ok: false,
      errors: { name: 'Le nom de l’émission : un texte sur une ligne, sans caractère de contrôle.' },
    });
  });

  it.each(MARKS)('refuse %s in a demo’s name, in the other one-line fields and in the message', (_name, mark) => {
    expect(readFields('demo', show({ name: `Bru${mark}me`, when: undefined }))).toEqual({
      ok: false,
      errors: { name: 'Le nom du projet : un texte sur une ligne, sans caractère de contrôle.' },
    });
    expect(
      readFields('emission', show({ makers: `Cam${mark}ille`, style: `ambi${mark}ent`, when: `mar${mark}di` })),
    ).toEqual({
      ok: false,
      errors: {
        makers: 'Qui la fait : un texte sur une ligne, sans caractère de contrôle.',
        style: 'Le style : un texte sur une ligne, sans caractère de contrôle.',
        when: 'Le rythme et les disponibilités : un texte sur une ligne, sans caractère de contrôle.',
      },
    });
    expect(readFields('emission', show({ message: `Bonjour,\n\nNous${mark} aimerions une heure.` }))).toEqual({
      ok: false,
      errors: { message: 'Le message contient des caractères de contrôle.' },
    });
    expect(readNote(`Écoutée${mark}, à garder.`)).toBeNull();
  });

  it('keep what a name or a message may honestly hold: accents, an emoji sequence, a soft hyphen, Persian', () => {
    const name = 'Les Ondes Lentes 👩‍🎤 · Fré\u00adquences · می\u200cخواهم';
    expect(readFields('emission', show({ name, message: 'Une ligne\net une autre\ttabulée.' }))).toMatchObject({
      ok: true,
      fields: { name, message: 'Une ligne\net une autre\ttabulée.' },
    });
  });
});
