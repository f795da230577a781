import { resolve } from 'node:path';
import * as v from 'valibot';
import { RENDITIONS_ACCEPTED, readRenditionsText } from './renditions';

// The kinds of the settings' values (docs/settings.md): one rule per kind (booleans, whole numbers,
// durations, sizes, addresses, lists), with one French message for a refused value.

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} : ${message}`);
  }
}

/**
 * The shortest token the site accepts (the admin's, the teams' deploy tokens): shorter, it could be
 * guessed in the attempts the rate limits allow over months.
 */
export const SECRET_MIN_LENGTH = 24;

/** How one kind of value is read: its rule (Valibot), and what it accepts, said in French. */
export interface Kind<T> {
  schema: v.GenericSchema<string, T>;
  accepted: string;
}

const TRUE = ['1', 'true', 'yes', 'oui', 'on'];
const FALSE = ['0', 'false', 'no', 'non', 'off'];

/** A yes or no: on/off, oui/non, true/false, yes/no, 1/0, any case. */
export const boolean: Kind<boolean> = {
  schema: v.pipe(
    v.string(),
    v.toLowerCase(),
    v.picklist([...TRUE, ...FALSE]),
    v.transform((value) => TRUE.includes(value)),
  ),
  accepted: 'on ou off (aussi oui/non, true/false, 1/0)',
};

/** A whole number from `min` to `max`. */
export function integer(min: number, max: number, unit = ''): Kind<number> {
  return {
    schema: v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(min), v.maxValue(max)),
    accepted: `un nombre entier${unit === '' ? '' : ` ${unit}`} de ${String(min)} à ${String(max)}`,
  };
}

/** A number from `min` to `max`, with up to three decimals (a point or a comma). */
export function decimal(min: number, max: number, unit: string): Kind<number> {
  return {
    schema: v.pipe(
      v.string(),
      v.regex(/^\d{1,6}(?:[.,]\d{1,3})?$/),
      v.transform((value) => Number(value.replace(',', '.'))),
      v.minValue(min),
      v.maxValue(max),
    ),
    accepted: `un nombre ${unit} de ${String(min)} à ${String(max)}, décimales permises (0,5 ou 0.5)`,
  };
}

/** A duration written in seconds, read in milliseconds. */
export function seconds(min: number, max: number): Kind<number> {
  const whole = integer(min, max, 'de secondes');
  return {
    schema: v.pipe(
      whole.schema,
      v.transform((value) => value * 1000),
    ),
    accepted: whole.accepted,
  };
}

/** A duration written in milliseconds. */
export const milliseconds = (min: number, max: number): Kind<number> => integer(min, max, 'de millisecondes');

/** A size in bytes. */
export const bytes = (min: number, max: number): Kind<number> => integer(min, max, "d'octets");

const parsedUrl = (value: string): URL | null => {
  try {
    return new URL(value);
  } catch {
    return null;
  }
};

/** An address with one of `protocols`, without its final slash. */
export function address(protocols: readonly string[], example: string): Kind<string> {
  return {
    schema: v.pipe(
      v.string(),
      v.check((value) => protocols.includes(parsedUrl(value)?.protocol ?? '')),
      v.transform((value) => value.replace(/\/$/, '')),
    ),
    accepted: `une adresse ${protocols.map((protocol) => `${protocol}//`).join(' ou ')} (${example})`,
  };
}

/** An http(s) address. */
export const httpAddress = address(['http:', 'https:'], 'https://exemple.org/…');

/** A site's origin: http(s), a host and a port, nothing after. */
export const origin: Kind<string> = {
  schema: v.pipe(
    v.string(),
    v.check((value) => {
      const url = parsedUrl(value);
      return url !== null && ['http:', 'https:'].includes(url.protocol) && url.origin === value.replace(/\/$/, '');
    }),
    v.transform((value) => value.replace(/\/$/, '')),
  ),
  accepted: 'une origine http(s), sans chemin (https://exemple.org)',
};

/** A list separated by commas, each entry read by `entry`; at most `max`. */
export function list<T>(entry: Kind<T>, max: number, prepare: (value: string) => string = (value) => value): Kind<T[]> {
  return {
    schema: v.pipe(
      v.string(),
      v.transform((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== '')
          .map(prepare),
      ),
      v.maxLength(max),
      v.array(entry.schema),
    ),
    accepted: `au plus ${String(max)} valeurs séparées par des virgules, chacune ${entry.accepted}`,
  };
}

/** One of `values`. */
export function choice<T extends string>(values: readonly T[]): Kind<T> {
  return { schema: v.picklist(values), accepted: values.join(', ') };
}

/** Text checked by `check` (said by `accepted`). */
export function text(accepted: string, check: (value: string) => boolean = () => true): Kind<string> {
  return { schema: v.pipe(v.string(), v.check(check)), accepted };
}

/** Text that `pattern` matches whole (said by `accepted`), of `maxLength` characters at most. */
export function matching(accepted: string, pattern: RegExp, maxLength = Number.POSITIVE_INFINITY): Kind<string> {
  return text(accepted, (value) => pattern.test(value) && value.length <= maxLength);
}

/** Text without a space (said by `accepted`), of `maxLength` characters at most. */
export function withoutSpace(accepted: string, maxLength: number): Kind<string> {
  return text(accepted, (value) => value.length <= maxLength && !/\s/.test(value));
}

/** A secret shared by the admins or the instances: 24 characters or more, no space. */
export const secretText = text(
  `${String(SECRET_MIN_LENGTH)} caractères ou plus, sans espace`,
  (value) => value.length >= SECRET_MIN_LENGTH && !/\s/.test(value),
);

/** A value read by a reader of its own, which throws `ConfigError` with its own French message. */
export function custom<T>(accepted: string, read: (value: string) => T): Kind<T> {
  return { schema: v.pipe(v.string(), v.transform(read)), accepted };
}

/** Calendar addresses (at most 10), `webcal:` read as `https:`. */
export const calendarAddresses = list(httpAddress, 10, (value) => value.replace(/^webcal:/i, 'https:'));

/** A duration in seconds from 1 to `max`, with its default. */
export const seconds1 = (fallback: number, max: number) => ({ kind: seconds(1, max), default: String(fallback) });

/** A folder: not the system's root. */
export const folder = text(
  'un dossier (pas la racine du système)',
  (value) => !value.includes('\0') && resolve(value) !== '/',
);

/** The radio's mounts, a JSON list (renditions.ts). */
export const renditions = custom(RENDITIONS_ACCEPTED, (value) => {
  try {
    return readRenditionsText(value);
  } catch (error) {
    throw new ConfigError('LIVE_RENDITIONS', error instanceof Error ? error.message : String(error));
  }
});
