import site from '../../config/site.json';

/**
 * The radio's settings an operator changes without a build: the live stream, the chat and the
 * Twitch channel. The site server reads them at start-up (site.json's values by default), writes
 * them into every page and answers them at GET {apiBase}/radio for the player on partner sites.
 */
export interface RadioSettings {
  liveStreamUrl: string;
  chatEmbedUrl: string;
  chatRoom: string;
  twitchChannel: string;
}

export const RADIO_SETTINGS_FIELDS = ['liveStreamUrl', 'chatEmbedUrl', 'chatRoom', 'twitchChannel'] as const;

/** Id of the `<script type="application/json">` the server writes into every page. */
export const RADIO_SETTINGS_ID = 'radio-config';

/** Path of the settings under the API base. */
export const RADIO_SETTINGS_PATH = '/radio';

const FETCH_TIMEOUT_MS = 5000;

const defaults: RadioSettings = {
  liveStreamUrl: site.radio.liveStreamUrl,
  chatEmbedUrl: site.radio.chatEmbedUrl,
  chatRoom: site.radio.chatRoom,
  twitchChannel: site.radio.twitchChannel,
};

let current: RadioSettings | null = null;
let pending: Promise<RadioSettings> | null = null;
let generation = 0;

/**
 * The settings in `data` (the page's or the API's): each non-empty text field is taken, anything
 * else keeps site.json's value. The server has checked them against the schema already.
 */
export function parseRadioSettings(data: unknown): RadioSettings {
  const record = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
  const result = { ...defaults };
  for (const field of RADIO_SETTINGS_FIELDS) {
    const value: unknown = (record as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.trim() !== '') result[field] = value.trim();
  }
  return result;
}

function fromPage(): RadioSettings {
  if (typeof document === 'undefined') return { ...defaults };
  const text = document.getElementById(RADIO_SETTINGS_ID)?.textContent ?? '';
  if (text === '') return { ...defaults };
  try {
    return parseRadioSettings(JSON.parse(text));
  } catch {
    console.warn(`Réglages de la radio illisibles (#${RADIO_SETTINGS_ID}) : valeurs par défaut du site`);
    return { ...defaults };
  }
}

/**
 * The radio's settings, for every part that needs the live stream, the chat or the Twitch channel.
 * Read once from the page the server wrote; without it (a part's own dev page), site.json's.
 */
export function radioSettings(): RadioSettings {
  current ??= fromPage();
  return current;
}

/**
 * For the player on a partner site, whose page says nothing about the radio: fetches the settings
 * from the API (GET {apiBase}/radio). Until they arrive, and when the API fails, site.json's apply.
 */
export function loadRadioSettings(url: string): Promise<RadioSettings> {
  generation += 1;
  const mine = generation;
  current ??= { ...defaults };
  const done = fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
    .then(async (response) => {
      if (!response.ok) throw new Error(`${url} : ${String(response.status)}`);
      return parseRadioSettings(await response.json());
    })
    .catch((error: unknown) => {
      console.warn('Réglages de la radio indisponibles, valeurs par défaut du site :', error);
      return { ...defaults };
    })
    .then((settings) => {
      if (mine !== generation) return radioSettings();
      current = settings;
      pending = null;
      return settings;
    });
  pending = done;
  return done;
}

/** Resolves once the settings being fetched (if any) have arrived: the player waits before playing live. */
export function radioSettingsReady(): Promise<RadioSettings> {
  return pending ?? Promise.resolve(radioSettings());
}

/** Forgets what was read, so the next call reads the page again (tests). */
export function resetRadioSettings(): void {
  generation += 1;
  current = null;
  pending = null;
}
