import { SETTINGS, type Setting } from './settings';

/**
 * The list of settings, from the table (settings.ts): docs/settings.md is written from it
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

const entries = () => Object.entries(SETTINGS) as [string, Setting][];

const defaultOf = (setting: Setting): string => setting.defaultNote ?? setting.default ?? '(unset)';

const cell = (text: string) => text.replaceAll('|', '\\|');

/** docs/settings.md. */
export function settingsMarkdown(): string {
  const lines = [
    '# Settings',
    '',
    '<!-- Written by `npm run settings -- --markdown > docs/settings.md` from server/src/settings/settings.ts; a test fails when it is stale. -->',
    '',
    'Every environment variable the site reads, declared once in `server/src/settings/settings.ts` and read once',
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
    lines.push(
      '',
      `## ${title}`,
      '',
      '| variable | default | example | accepted | what it does |',
      '| --- | --- | --- | --- | --- |',
    );
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
