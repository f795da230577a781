import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { HERMETIC_PROCESS_ENV } from '../scripts/hermetic.mjs';

/** Debian's Chromium; CHROMIUM_PATH overrides it. No browser is ever downloaded. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function hasChromium(): boolean {
  return existsSync(chromiumPath());
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/** The project's fontconfig file: the only fonts the tests' Chromium sees (docs/testing.md). */
export const FONTCONFIG_FILE = join(__dirname, 'fonts', 'fonts.conf');

/**
 * What the browser tests fix whatever the contributor's machine (docs/testing.md, « Hermetic
 * browser tests »): the fonts (the project's, from npm, never the system's), the processes' time
 * zone and locale. The pages' own zone and language are Playwright's `timezoneId` and `locale`.
 */
export const HERMETIC_ENV = { ...HERMETIC_PROCESS_ENV, FONTCONFIG_FILE } as const;

/** Applies HERMETIC_ENV to this process (and so to the browser and servers it starts). */
export function useHermeticEnv(): void {
  Object.assign(process.env, HERMETIC_ENV);
  // fontconfig writes its cache beside node_modules, never in the user's home.
  mkdirSync(join(__dirname, '..', 'node_modules', '.cache', 'fontconfig'), { recursive: true });
}
