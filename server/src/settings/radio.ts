import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { radioConfigSchema } from '@collectif/shared/content-schemas';
import {
  NO_TIMESHIFT,
  RADIO_SETTINGS_FIELDS,
  SUPPORT_PAGE,
  TIMESHIFT_PLAYLIST,
  normalRendition,
  siteConfig,
  type RadioSettings,
  type Rendition,
  type Timeshift,
} from '@collectif/shared/config';
import { ConfigError, type Env } from './config';
import { checkRenditions } from './renditions';
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

/** The fields RADIO_CONFIG_FILE may hold. */
const FILE_FIELDS: readonly string[] = [...RADIO_SETTINGS_FIELDS, 'renditions'];

function readFile(path: string): Partial<Record<Field | 'renditions', unknown>> {
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
  const unknown = Object.keys(data).find((key) => !FILE_FIELDS.includes(key));
  if (unknown !== undefined) {
    throw new ConfigError(FILE_VARIABLE, `champ inconnu « ${unknown} » (attendus : ${FILE_FIELDS.join(', ')})`);
  }
  return data;
}

/** The timeline the pages and partners are told of: its playlist when the radio keeps hours of its live. */
export function timeshiftOf(hours: number): Timeshift {
  return hours > 0 ? { playlist: TIMESHIFT_PLAYLIST, hours } : { ...NO_TIMESHIFT };
}

/**
 * The renditions (docs/settings.md, « The radio »): LIVE_RENDITIONS, else RADIO_CONFIG_FILE's, else
 * site.json's. The first is the live stream: renditions named by the operator set it when it is not
 * set on its own, and must agree with it when it is; site.json's (the demo's) give way to a live stream
 * the operator set, which then plays alone.
 */
function readRenditions(
  env: Env,
  fromFile: Partial<Record<Field | 'renditions', unknown>>,
  liveStreamUrl: { value: string; source: 'variable' | 'file' | 'site' },
): { renditions: Rendition[]; liveStreamUrl: string } {
  let renditions: Rendition[];
  let source: string;
  const own = setting(env, 'LIVE_RENDITIONS');
  if (own !== undefined) {
    renditions = own;
    source = 'LIVE_RENDITIONS';
  } else if (fromFile.renditions !== undefined) {
    try {
      renditions = checkRenditions(fromFile.renditions);
    } catch (error) {
      throw new ConfigError(
        FILE_VARIABLE,
        `champ /renditions : ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    source = `${FILE_VARIABLE} (champ /renditions)`;
  } else {
    const fromSite = siteConfig.radio.renditions;
    if (liveStreamUrl.source !== 'site' && fromSite[0]?.url !== liveStreamUrl.value) {
      return { renditions: [normalRendition(liveStreamUrl.value)], liveStreamUrl: liveStreamUrl.value };
    }
    return { renditions: checkRenditions(fromSite), liveStreamUrl: liveStreamUrl.value };
  }
  const first = renditions[0];
  if (first === undefined) throw new ConfigError(source, 'au moins une rendition est attendue, la normale');
  if (liveStreamUrl.source === 'site') return { renditions, liveStreamUrl: first.url };
  if (first.url !== liveStreamUrl.value) {
    throw new ConfigError(
      liveStreamUrl.source === 'variable' ? 'LIVE_STREAM_URL' : FILE_VARIABLE,
      `« ${liveStreamUrl.value} » n’est pas l’adresse de la première rendition de ${source} (« ${first.url} ») : la première est le direct normal, l’une ou l’autre est à changer`,
    );
  }
  return { renditions, liveStreamUrl: first.url };
}

/**
 * The radio's run-time settings (docs/settings.md, « The radio »): each field from its variable,
 * else from RADIO_CONFIG_FILE, else from site.json, then checked against site.json's schema
 * (shared/src/schemas/content.mjs); the renditions as readRenditions says; the timeline from
 * LIVE_TIMESHIFT_HOURS. A refused value stops the server with one line naming the variable (and
 * the file's field).
 */
export function readRadioSettings(env: Env): RadioSettings {
  const filePath = setting(env, 'RADIO_CONFIG_FILE');
  const fromFile = filePath === undefined ? {} : readFile(filePath);
  const values: Record<Field, unknown> = {
    liveStreamUrl: siteConfig.radio.liveStreamUrl,
    chatEmbedUrl: siteConfig.radio.chatEmbedUrl,
    chatRoom: siteConfig.radio.chatRoom,
    twitchChannel: siteConfig.radio.twitchChannel,
  };
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
  const liveSource = sources.liveStreamUrl.variable;
  const { renditions, liveStreamUrl } = readRenditions(env, fromFile, {
    value: String(values.liveStreamUrl),
    source: liveSource === FILE_VARIABLE ? 'file' : liveSource === 'site.json' ? 'site' : 'variable',
  });
  return {
    liveStreamUrl,
    chatEmbedUrl: String(values.chatEmbedUrl),
    chatRoom: String(values.chatRoom),
    twitchChannel: String(values.twitchChannel),
    renditions,
    timeshift: timeshiftOf(setting(env, 'LIVE_TIMESHIFT_HOURS')),
    // The page while HelloAsso is on; each page and GET /api/radio say the current choice (docs/support.md).
    support: { page: SUPPORT_PAGE, external: siteConfig.links.donation },
  };
}
