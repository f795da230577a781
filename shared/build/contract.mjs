// @ts-check
// How the parts share @collectif/shared, and which version of it a part is built against
// (docs/contract.md, « The shared package »; docs/parts.md, « Singletons and helpers »).
//
// The package's main entry is the one shared singleton: one copy on a page, the shell's, whatever
// version each remote was built with. It holds what must be one: the store, the API slice, the event
// bus, the React contexts, the router and Redux libraries. Everything else a part may use is a
// helper, imported by its own path (`@collectif/shared/ui`, …): not federated, so each part bundles
// the helper code it was built with and runs with any shell.
import { readFileSync } from 'node:fs';
import semver from 'semver';

/** @type {{ name: string, version: string, exports: Record<string, string> }} */
const sharedPkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The package's name, the share key of the singleton in every part's federation config. */
export const CONTRACT_PACKAGE = sharedPkg.name;

/** The contract's current version: shared/package.json's `version`, its history in docs/contract.md. */
export const CURRENT_CONTRACT = sharedPkg.version;

/**
 * The shells of the previous major that a remote built against the current contract also runs under
 * (docs/contract.md, « 4.0.0 »). 4.0.0 removed from the singleton only the queries the radio and
 * About now inject themselves, so a remote of 4.0.0 runs with a 3.3 shell too: each team deploys its
 * part first, then the shell moves to 4.0.0, as a major asks. A remote's webpack config may name
 * another range (`alsoAccepts`); a build with CONTRACT_VERSION claims its own range alone.
 */
export const PREVIOUS_SHELLS = '^3.3.0';

/**
 * The contract version a part is built against: the package's, unless the environment sets
 * `CONTRACT_VERSION`. That variable is for tests only (e2e/tests/contract.spec.ts builds a remote
 * « against the previous contract » with it): a real build that set it would claim a contract its
 * code does not follow.
 * @param {Record<string, string | undefined>} [env]
 * @returns {string}
 */
export function contractVersion(env = process.env) {
  const asked = env.CONTRACT_VERSION;
  if (asked === undefined || asked === '') return CURRENT_CONTRACT;
  const version = semver.valid(asked);
  if (version === null) throw new Error(`CONTRACT_VERSION « ${asked} » n'est pas une version (par exemple 2.4.0)`);
  return version;
}

/**
 * What a part built against `version` needs from the shell's copy: the same major, that minor or a
 * later one (`2.4.3` needs `^2.4.0`). Within a major, versions only add (docs/contract.md). Before a
 * major, a part whose code is ready for it says so with `alsoAccepts` (`^3.0.0`, its webpack config),
 * and needs either (`^2.4.0 || ^3.0.0`).
 * @param {string} version
 * @param {string} [alsoAccepts]
 * @returns {string}
 */
export function contractRange(version, alsoAccepts) {
  const parsed = semver.parse(version);
  if (parsed === null) throw new Error(`« ${version} » n'est pas une version du contrat`);
  const range = `^${String(parsed.major)}.${String(parsed.minor)}.0`;
  if (alsoAccepts === undefined) return range;
  if (semver.validRange(alsoAccepts) === null)
    throw new Error(`alsoAccepts « ${alsoAccepts} » n'est pas un intervalle de versions`);
  return `${range} || ${alsoAccepts}`;
}

/**
 * The singleton's share config in a part built against `version`: the part needs its range, and
 * provides that exact version (the shell's copy is the one a page uses: it loads first). Never
 * `strictVersion`: a part out of range still loads (the federation runtime warns in the console),
 * since the deploy refuses such a part before a visitor gets it.
 * @param {string} version
 * @param {string} [alsoAccepts]
 */
export function singletonShare(version, alsoAccepts) {
  return { singleton: true, requiredVersion: contractRange(version, alsoAccepts), version };
}

/**
 * `dist/part.json`, what the deploy reads of a built part: its name in shared/parts.mjs, the
 * contract it provides (the shell: an exact version) or needs (a remote: a range), when and from
 * which commit it was built. The deploy accepts a remote when
 * `semver.satisfies(shell.contract, remote.contract)`.
 * @param {{ name: string, isHost: boolean, version: string, alsoAccepts?: string | undefined, builtAt: Date, commit: string | null }} options
 */
export function partInfo({ name, isHost, version, alsoAccepts, builtAt, commit }) {
  return {
    name,
    contract: isHost ? version : contractRange(version, alsoAccepts),
    builtAt: builtAt.toISOString(),
    commit,
  };
}

/** The singleton's entry in shared/package.json `exports`. */
export const SINGLETON_ENTRY = '.';

/**
 * Helpers: the entries a part's browser code imports by their own path and bundles for itself (its
 * server container too). Each holds no state a page must have once: none of them reaches, through its
 * own files, the singleton's modules below or the libraries that must be one copy; what it needs of
 * them it imports from `@collectif/shared` (shared/build/contract.test.mjs checks it).
 */
export const HELPER_ENTRIES = [
  './addresses',
  './boot',
  './call',
  './editor-config',
  './embed',
  './figures',
  './follow',
  './follow/stored',
  './follow/prevenir',
  './limits',
  './oembed',
  './pictures',
  './preview',
  './proposals',
  './proposals/number',
  './proposals/schema',
  './resume',
  './schemas/played-artists',
  './schemas/support',
  './schedule',
  './seo',
  './time',
  './tokens',
  './ui',
  './styles/*',
  './content/*',
];

/**
 * Entries that are no part's federated browser code: the site's server and the parts' server
 * containers (`config`, `schemas`, `server`), the build, the tests, a remote's pages outside the
 * federation (`standalone`: its dev page, and mf-admin's editor app, a bundle of its own with one
 * copy of everything), and `package.json` (the contract's version, which a renderer gives the share
 * scope it offers the parts' server containers). `config` holds the radio settings the singleton
 * reads: a part reads them through `@collectif/shared` (its types alone may come from here).
 */
export const OTHER_ENTRIES = [
  './config',
  './schemas',
  './content-schemas',
  './server',
  './build/*',
  './test-utils',
  './testing',
  './standalone',
  './package.json',
];

/**
 * The singleton's own modules, under shared/src: what a helper's files never import by a relative
 * path (they would bundle a second copy of them into a part).
 */
export const SINGLETON_MODULES = [
  'index.ts',
  'libraries.ts',
  'store/',
  'events/bus.ts',
  'environment.tsx',
  'config/',
  'ssr.ts',
];

/** Libraries that must be one copy on a page and reach the parts only through the singleton. */
export const ONE_COPY_LIBRARIES = ['react-router-dom', 'react-router', '@reduxjs/toolkit', 'react-redux', 'redux'];

/**
 * Helpers the singleton exported up to 2.4.0, by the path a part imports them from now. The
 * singleton keeps them for the parts built before 2.5.0, which run against the shell's copy, until
 * version 3.0.0 (docs/contract.md); lint refuses them from `@collectif/shared` in new code. Values
 * only: types are erased from the bundles, and come from either path.
 * @type {Record<string, readonly string[]>}
 */
export const MOVED_TO_HELPERS = {
  '@collectif/shared/ui': [
    'Card',
    'cardDate',
    'EmbedFacade',
    'ExternalLink',
    'StatusMessage',
    'answerStatus',
    'prefersReducedMotion',
    'scrollToTop',
    'useReducedMotion',
    'useReveal',
  ],
  '@collectif/shared/schedule': [
    'SCHEDULE_ZONE',
    'UPCOMING_DAYS',
    'addDays',
    'dayLabel',
    'dayOf',
    'dayStart',
    'hourOf',
    'nextShows',
    'readDay',
    'relativeDayLabel',
    'scheduleRange',
    'selectScheduleArrival',
    'showOnAir',
    'showsByDay',
    'upcomingRange',
    'useScheduleClock',
    'useShown',
    'useVisitorZone',
    'visitorTime',
    'wallAt',
    'weekStart',
    'zoneOffset',
    'zonedIso',
  ],
  '@collectif/shared/resume': [
    'RESUME_END_MARGIN',
    'RESUME_MAX_ENTRIES',
    'RESUME_MIN_SECONDS',
    'rememberPosition',
    'rememberedPosition',
    'resumeKey',
    'useRememberedPosition',
  ],
  '@collectif/shared/time': ['formatTime', 'speakTime'],
  '@collectif/shared/tokens': ['DEFAULT_COVER', 'breakpoints', 'colors'],
  '@collectif/shared/addresses': ['isSlug', 'parseStartTime', 'startTimeParam'],
  '@collectif/shared/pictures': ['RESIDENCE_PICTURES', 'residenceImages', 'residencePictureUrls'],
};
