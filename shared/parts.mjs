// @ts-check
// The registry of parts: the one list of what the site is made of (docs/parts.md). Plain data that
// the Node scripts, the webpack factory, ESLint, Jest, the server and the shell all read; TypeScript
// reads its literal types too (`@type {const}`), so the remote contract derives from it.

/**
 * The parts of the page, the shell first. For each one:
 * - `name`: how scripts, the remote map and `RemoteContract` call it (`npm run build -- radio`);
 * - `folder`: its workspace, which builds into `<folder>/dist`; a remote is served at `/<folder>/`;
 * - `devPort`: its webpack dev server (`npm run dev`);
 * - `exposes`: the modules a remote exposes, each `./src/exposed/<Module>.tsx` whose default export
 *   is a component (the shell exposes nothing).
 * The federation name of a part's container is `collectif_<name>`.
 */
export const PARTS = /** @type {const} */ ([
  { name: 'shell', folder: 'shell', devPort: 3000, exposes: [] },
  { name: 'player', folder: 'mf-player', devPort: 3001, exposes: ['Player'] },
  {
    name: 'radio',
    folder: 'mf-radio',
    devPort: 3002,
    exposes: [
      'HomePage',
      'ProgrammePage',
      'EventsPage',
      'EventPage',
      'ResidencesPage',
      'ResidencePage',
      'FollowedPage',
      'EpisodesPage',
      'EpisodePage',
      'EmbedPage',
      // The played artists (issue 61): the list A–Z and an artist's page.
      'PlayedArtistsPage',
      'PlayedArtistPage',
      // « Proposer une émission » (issue 73, docs/proposals.md).
      'ProposeShowPage',
    ],
  },
  {
    name: 'label',
    folder: 'mf-label',
    devPort: 3003,
    // « Envoyer une démo » (issue 73, docs/proposals.md).
    exposes: ['LabelPage', 'SendDemoPage'],
  },
  {
    name: 'about',
    folder: 'mf-about',
    devPort: 3004,
    // « Nous soutenir » and the page HelloAsso sends a visitor back to (docs/support.md).
    exposes: ['AboutPage', 'SupportPage', 'SupportReturnPage'],
  },
  // The volunteers' editor (docs/content.md, « The editor »): not in the menu, never indexed.
  { name: 'admin', folder: 'mf-admin', devPort: 3005, exposes: ['AdminPage', 'InvitationPage'] },
]);

/**
 * The workspaces that are not parts of the page: the contract every part compiles against, the
 * site's server, the browser tests. Each has its tsconfig; `shared` and `server` have jest tests.
 */
export const PACKAGES = /** @type {const} */ (['shared', 'server', 'e2e']);

/** The shell loads every other part at run time. */
export const REMOTE_PARTS = PARTS.filter((part) => part.name !== 'shell');

/**
 * The federation name of a part's container (webpack's `name`, the shell's `registerRemotes`).
 * @param {string} name
 */
export const federationName = (name) => `collectif_${name}`;

/**
 * Where the site server serves a part's `dist/` (a remote's manifest is `<prefix>mf-manifest.json`).
 * @param {{ folder: string }} part
 */
export const urlPrefix = (part) => `/${part.folder}/`;

/**
 * The file of an exposed module, from the remote's folder.
 * @param {string} module
 */
export const exposedFile = (module) => `./src/exposed/${module}.tsx`;
