import { RENDITIONS } from '@collectif/shared/content-schemas';
import { TIMESHIFT_HOURS_MAX, TIMESHIFT_PLAYLIST } from '@collectif/shared/config';
import { SETTINGS, type Setting } from './declarations';

/**
 * The list of settings, from the table (declarations.ts): docs/settings.md is written from it
 * (`npm run settings -- --markdown > docs/settings.md`; a test fails when the file is stale), and
 * `npm run settings` (or `npm start -- --help`) prints it.
 */

const GROUPS: Readonly<Record<Setting['group'], string>> = {
  site: 'The site',
  rendering: 'Rendering',
  api: 'The API and its upstreams',
  radio: 'The radio',
  timeshift: 'Listening back',
  demo: 'The demo',
  limits: 'Limits per visitor',
  development: 'Development',
};

/** What a group's table cannot say: its rules and their reasons (docs/settings.md, under its title). */
const NOTES: Partial<Readonly<Record<Setting['group'], string>>> = {
  radio: [
    "The renditions are the radio's mounts (Icecast and AzuraCast serve several): the player offers",
    'them as « Qualité », picks the lightest by itself when the browser asks to save data or says the',
    'connection is slow, and the timeline records each as a variant of its playlist. The first is the',
    'normal one and is the live stream: `LIVE_RENDITIONS` alone sets `LIVE_STREAM_URL`, and both set',
    "must agree. Unset, site.json's apply (the demo's « Normale » at 128 kb/s and « Économe » at",
    "48 kb/s), unless `LIVE_STREAM_URL` names another stream, which then plays alone: the demo's light",
    "mount is no other radio's. `RADIO_CONFIG_FILE` may hold them as `renditions`. Their bounds, and",
    `why: at most ${String(RENDITIONS.max)} (a choice read at a glance, each one recorded); an \`id\` of`,
    `lower-case letters, digits and single hyphens, ${String(RENDITIONS.idMax)} at most (it names a folder and an`,
    `address of the timeline); a \`label\` of ${String(RENDITIONS.labelMax)} characters at most, without control`,
    "characters (a line of the player's panel on a phone); a `bitrate` in whole kb/s from",
    `${String(RENDITIONS.bitrateMin)} to ${String(RENDITIONS.bitrateMax)} (what MP3 encoders make; the playlist states it); a \`url\` in`,
    '`https://` or a path of the site, never `//` (a page served over https plays no http stream, and',
    '`//` names another host); the codec `mp3` (what the timeline packs). A refused rendition stops',
    'the server with one line naming it and its field; a partner page that receives a malformed one',
    'drops it.',
  ].join(' '),
  timeshift: [
    'The site keeps the last `LIVE_TIMESHIFT_HOURS` hours of the live stream, each rendition as HLS',
    `segments in \`LIVE_TIMESHIFT_DIR\`, served at \`/direct/\` (\`${TIMESHIFT_PLAYLIST}\`; docs/deploy.md), so a`,
    "listener can go back to the start of a show. How many hours is the admins' choice: a radio whose",
    'licence does not cover listening back sets 0, and then nothing is recorded and the pages and',
    "`GET /api/radio` say `timeshift.playlist` '' (the player shows no timeline). Hours may have up to",
    `three decimals (the tests keep 0.01, 36 s), ${String(TIMESHIFT_HOURS_MAX)} at most: the folder and the playlist grow with`,
    'them. Longer segments make a lighter playlist (fewer lines fetched again and again); shorter',
    'ones a finer step back and a closer edge.',
  ].join(' '),
};

/** A paragraph cut into lines of at most `width` characters, between words. */
function wrap(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((each) => each !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

const entries = () => Object.entries(SETTINGS) as [string, Setting][];

const defaultOf = (setting: Setting): string => setting.defaultNote ?? setting.default ?? '(unset)';

const cell = (text: string) => text.replaceAll('|', '\\|');

/** docs/settings.md. */
export function settingsMarkdown(): string {
  const lines = [
    '# Settings',
    '',
    '<!-- Written by `npm run settings -- --markdown > docs/settings.md` from server/src/settings/declarations.ts; a test fails when it is stale. -->',
    '',
    'Every environment variable the site reads, declared once in `server/src/settings/declarations.ts` and read once',
    'at start. An empty variable is an unset one. A refused value stops the server with one French',
    'line naming the variable, the value and what is accepted. One rule per kind:',
    '',
    '- **yes or no**: `on` or `off`, also `oui`/`non`, `true`/`false`, `yes`/`no`, `1`/`0`, in any case;',
    '- **durations** in whole seconds (`…_S`) or milliseconds (`…_MS`), **sizes** in bytes, **counts**',
    '  as whole numbers, each within its bounds;',
    '- **addresses** with their protocols (`http://` or `https://`; `redis://` or `rediss://`), the',
    '  final slash dropped; **lists** separated by commas.',
    '',
    'Variables marked secret are never printed by `npm run settings` with a value of their own.',
    '`deploy/site.env.example` is checked against this table by the tests.',
  ];
  for (const [group, title] of Object.entries(GROUPS)) {
    const notes = NOTES[group as Setting['group']];
    lines.push('', `## ${title}`, ...(notes === undefined ? [] : ['', ...wrap(notes)]));
    lines.push('', '| variable | default | example | accepted | what it does |', '| --- | --- | --- | --- | --- |');
    for (const [name, setting] of entries().filter(([, entry]) => entry.group === group)) {
      lines.push(
        `| \`${name}\` | ${cell(defaultOf(setting))} | \`${cell(setting.example)}\` | ${cell(setting.kind.accepted)} | ${cell(setting.description)}${setting.secret === true ? ' Secret.' : ''} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The list for a terminal: each variable, its default, an example and what it does. */
export function settingsText(env: Record<string, string | undefined> = {}): string {
  const lines = ['Réglages du site (variables d’environnement ; docs/settings.md) :'];
  for (const [group, title] of Object.entries(GROUPS)) {
    lines.push('', title);
    for (const [name, setting] of entries().filter(([, entry]) => entry.group === group)) {
      const current = env[name]?.trim();
      const shown =
        current === undefined || current === '' ? '' : setting.secret === true ? ' [défini]' : ` [= ${current}]`;
      lines.push(
        `  ${name}${shown}`,
        `      ${setting.description}`,
        `      défaut : ${defaultOf(setting)} · exemple : ${setting.example}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
