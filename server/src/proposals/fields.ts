import { NUMBER_PATTERN } from '@collectif/shared/proposals/number';
import { BOUNDS, type ProposalKind } from '@collectif/shared/proposals/schema';

/**
 * What a proposal is made of, and how the public's fields are read (docs/proposals.md, « What is
 * kept »). Every field is the public's text: bounded, kept as typed (markup stays text, it is never
 * interpreted by the server, and the editor shows it as text), control characters refused, links
 * https only. Each refusal is a French sentence for its field, which the page writes beside it.
 */

/** The kinds, the states and the bounds: the proposal's shape, written once in shared (proposals/schema.ts). */
export { BOUNDS, KINDS, STATES, type ProposalKind, type ProposalState } from '@collectif/shared/proposals/schema';

/** The letter a proposal's number starts with: E for a show, D for a demo (its form: number.ts in shared). */
export const PREFIX: Record<ProposalKind, 'E' | 'D'> = { emission: 'E', demo: 'D' };
export { NUMBER_PATTERN };

/** The fields a proposer fills, as kept. `when` is the show's only. */
export interface ProposalFields {
  name: string;
  makers: string;
  style: string;
  links: string[];
  when?: string;
  email: string;
  message: string;
}

/** A field's name as the form and the API name it, with its refusal. */
export type FieldErrors = Partial<Record<keyof ProposalFields, string>>;

/**
 * Refused in every field (docs/proposals.md, « What is kept »): control characters (C0 but tab and
 * line feeds, DEL, C1); every bidirectional mark, which would make a text read otherwise in the
 * editor than it is (the overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E,
 * U+200F and U+061C, which move the neutral characters around them); the line and paragraph
 * separators U+2028 and U+2029, a line break a one-line field would hide; and the invisible word
 * joiners and operators U+2060–U+2064 and U+FEFF, which no proposal's words need and which make two
 * names that read alike differ. Kept: the soft hyphen (U+00AD, a hyphen where a line breaks) and
 * U+200B–U+200D, which some scripts and emoji sequences are spelt with.
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
/** CR and LF: refused in the one-line fields, which e-mails' headers may carry (no header injected). */
const NEWLINE = /[\r\n]/;
/**
 * An e-mail address of the usual form: no space, no quote, no angle bracket, one @, a dotted domain.
 * Stricter than RFC 5322 on purpose: the address goes into a header (docs/proposals.md, « E-mail »).
 */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A one-line field: trimmed, required, bounded, without control characters or line breaks. */
function line(value: unknown, max: number, label: string, errors: FieldErrors, key: keyof ProposalFields): string {
  const text = (str(value) ?? '').trim();
  if (text === '') errors[key] = `${label} est obligatoire.`;
  else if (text.length > max) errors[key] = `${label} : au plus ${String(max)} caractères.`;
  else if (NEWLINE.test(text) || CONTROL.test(text))
    errors[key] = `${label} : un texte sur une ligne, sans caractère de contrôle.`;
  return text;
}

/** An https address, as URL writes it; null when it is not one (or too long, or with credentials). */
export function httpsLink(text: string): string | null {
  if (text.length > BOUNDS.link || CONTROL.test(text) || /\s/.test(text)) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.hostname === '') return null;
    return url.href.length > BOUNDS.link ? null : url.href;
  } catch {
    return null;
  }
}

/** The links: an array (JSON) or one per line (the form's textarea), 2 to 5, each https. */
function links(value: unknown, errors: FieldErrors): string[] {
  const list = Array.isArray(value)
    ? value
    : (str(value) ?? '')
        .split(/\r?\n/)
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
  if (list.length > 20) {
    errors.links = `Liens : entre ${String(BOUNDS.linksMin)} et ${String(BOUNDS.linksMax)} adresses.`;
    return [];
  }
  const read = list.map((entry) => (typeof entry === 'string' ? httpsLink(entry.trim()) : null));
  const bad = read.findIndex((entry) => entry === null);
  if (bad >= 0) {
    errors.links = `Lien n° ${String(bad + 1)} : une adresse https://… complète est attendue (SoundCloud, Mixcloud, Bandcamp, un hébergeur de fichiers).`;
  } else if (list.length < BOUNDS.linksMin || list.length > BOUNDS.linksMax) {
    errors.links = `Liens : entre ${String(BOUNDS.linksMin)} et ${String(BOUNDS.linksMax)} adresses pour écouter.`;
  }
  return read.filter((entry): entry is string => entry !== null);
}

/**
 * Reads a proposal's fields from a body (JSON or a form's fields): the fields, or each refusal by
 * field. Unknown fields are ignored (the spam fields are read apart).
 */
export function readFields(
  kind: ProposalKind,
  body: Record<string, unknown>,
): { ok: true; fields: ProposalFields } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const show = kind === 'emission';
  const name = line(body.name, BOUNDS.name, show ? 'Le nom de l’émission' : 'Le nom du projet', errors, 'name');
  const makers = line(body.makers, BOUNDS.makers, 'Qui la fait', errors, 'makers');
  const style = line(body.style, BOUNDS.style, 'Le style', errors, 'style');
  const linkList = links(body.links, errors);
  const when = show ? line(body.when, BOUNDS.when, 'Le rythme et les disponibilités', errors, 'when') : undefined;
  const emailText = (str(body.email) ?? '').trim();
  if (emailText === '') errors.email = 'L’adresse e-mail est obligatoire.';
  else if (emailText.length > BOUNDS.email || !EMAIL.test(emailText)) {
    errors.email = 'L’adresse e-mail n’a pas la forme nom@domaine.fr.';
  }
  const message = (str(body.message) ?? '').replace(/\r\n?/g, '\n').trim();
  if (message.length > BOUNDS.message) {
    errors.message = `Le message : au plus ${String(BOUNDS.message)} caractères.`;
  } else if (CONTROL.test(message.replace(/[\n\t]/g, ''))) {
    errors.message = 'Le message contient des caractères de contrôle.';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    fields: {
      name,
      makers,
      style,
      links: linkList,
      ...(when === undefined ? {} : { when }),
      email: emailText,
      message,
    },
  };
}

/** A volunteer's note: trimmed, 1 to 2,000 characters, line breaks allowed, no control character. */
export function readNote(value: unknown): string | null {
  const text = (str(value) ?? '').replace(/\r\n?/g, '\n').trim();
  if (text === '' || text.length > BOUNDS.note || CONTROL.test(text.replace(/[\n\t]/g, ''))) return null;
  return text;
}
