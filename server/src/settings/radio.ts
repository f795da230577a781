import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { radioConfigSchema } from '@collectif/shared/content-schemas';
import { RADIO_SETTINGS_FIELDS, siteConfig, type RadioSettings } from '@collectif/shared/config';
import { ConfigError, type Env } from './config';
import { setting } from './settings';

type Field = (typeof RADIO_SETTINGS_FIELDS)[number];

/** The variable that sets each field; it wins over RADIO_CONFIG_FILE, which wins over site.json. */
export const RADIO_VARIABLES: Record<Field, 'LIVE_STREAM_URL' | 'CHAT_EMBED_URL' | 'CHAT_ROOM' | 'TWITCH_CHANNEL'> = {
  liveStreamUrl: 'LIVE_STREAM_URL',
  chatEmbedUrl: 'CHAT_EMBED_URL',
  chatRoom: 'CHAT_ROOM',
  twitchChannel: 'TWITCH_CHANNEL',
};

/** What the schema's rule means, for the message of a refused value. */
const EXPECTED: Record<Field, string> = {
  liveStreamUrl: 'une adresse https:// ou un chemin commençant par /',
  chatEmbedUrl: 'une adresse https:// contenant {room}, remplacé par le salon',
  chatRoom: 'un nom de salon non vide',
  twitchChannel: 'un nom de chaîne Twitch, 3 à 25 lettres, chiffres ou _',
};

const FILE_VARIABLE = 'RADIO_CONFIG_FILE';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function readFile(path: string): Partial<Record<Field, unknown>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      FILE_VARIABLE,
      `fichier illisible (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(FILE_VARIABLE, `JSON illisible (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError(FILE_VARIABLE, 'un objet { "liveStreamUrl": …, "chatRoom": … } est attendu');
  }
  const unknown = Object.keys(data).find((key) => !(RADIO_SETTINGS_FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) {
    throw new ConfigError(
      FILE_VARIABLE,
      `champ inconnu « ${unknown} » (attendus : ${RADIO_SETTINGS_FIELDS.join(', ')})`,
    );
  }
  return data;
}

/**
 * The radio's run-time settings (docs/settings.md, « The radio »): each field from its variable,
 * else from RADIO_CONFIG_FILE, else from site.json, then checked against site.json's schema (shared/src/schemas/content.mjs). A
 * refused value stops the server with one line naming the variable (and the file's field).
 */
export function readRadioSettings(env: Env): RadioSettings {
  const filePath = setting(env, 'RADIO_CONFIG_FILE');
  const fromFile = filePath === undefined ? {} : readFile(filePath);
  const values: Record<Field, unknown> = { ...siteConfig.radio };
  /** Where each value came from, for the message: the variable, and the field within a file. */
  const sources = {} as Record<Field, { variable: string; field: string }>;
  for (const field of RADIO_SETTINGS_FIELDS) {
    const own = setting(env, RADIO_VARIABLES[field]);
    if (own !== undefined) {
      values[field] = own;
      sources[field] = { variable: RADIO_VARIABLES[field], field: '' };
    } else if (fromFile[field] !== undefined) {
      values[field] = fromFile[field];
      sources[field] = { variable: FILE_VARIABLE, field: `champ /${field} : ` };
    } else {
      sources[field] = { variable: 'site.json', field: `champ /radio/${field} : ` };
    }
  }
  const checked = v.safeParse(radioConfigSchema, { ...siteConfig.radio, ...values });
  if (!checked.success) {
    const key: unknown = checked.issues[0].path?.[0]?.key;
    const path = typeof key === 'string' ? key : '';
    const field = RADIO_SETTINGS_FIELDS.find((name) => name === path) ?? 'liveStreamUrl';
    const source = sources[field];
    throw new ConfigError(
      source.variable,
      `${source.field}valeur invalide « ${shown(values[field])} » (attendu : ${EXPECTED[field]})`,
    );
  }
  const result = {} as RadioSettings;
  for (const field of RADIO_SETTINGS_FIELDS) result[field] = String(values[field]);
  return result;
}
