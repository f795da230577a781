import * as v from 'valibot';
import { SETTINGS, type Setting, type SettingName } from './declarations';
import { ConfigError, type Kind } from './kinds';

// Reading the settings (docs/settings.md): each variable of the table (declarations.ts) read once, at
// start, by its kind (kinds.ts).

export type Env = Record<string, string | undefined>;

/** The variable's value: its default when unset or empty; throws ConfigError when refused. */
export function readSetting<T>(env: Env, name: string, setting: Setting<T>): T | undefined {
  const raw = env[name]?.trim() ?? '';
  const written = raw === '' ? setting.default : raw;
  if (written === undefined) return undefined;
  let result: v.SafeParseResult<v.GenericSchema<string, T>>;
  try {
    result = v.safeParse(setting.kind.schema, written);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(name, error instanceof Error ? error.message : String(error));
  }
  if (!result.success) {
    // A secret is never written out, even refused: the log may be read by more people than the
    // settings.
    const shown = setting.secret === true ? `de ${String(written.length)} caractères (cachée)` : `« ${written} »`;
    throw new ConfigError(name, `valeur invalide ${shown} (attendu : ${setting.kind.accepted})`);
  }
  return result.output;
}

/** The variables of a table present in an environment file's lines (`NAME=value`, `# NAME=`). */
export function fileVariables(text: string): { name: string; value: string; commented: boolean }[] {
  return text
    .split('\n')
    .map((line) => /^\s*(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ name: match[2] ?? '', value: (match[3] ?? '').trim(), commented: match[1] !== undefined }));
}

/** The value of a variable of the table, typed by its kind. */
type ValueOf<S> = S extends { kind: Kind<infer T>; default: string }
  ? T
  : S extends { kind: Kind<infer T> }
    ? T | undefined
    : never;

/** A variable of the table, read from `env` (its default when unset); throws ConfigError when refused. */
export function setting<N extends SettingName>(env: Env, name: N): ValueOf<(typeof SETTINGS)[N]> {
  return readSetting(env, name, SETTINGS[name] as Setting) as ValueOf<(typeof SETTINGS)[N]>;
}
