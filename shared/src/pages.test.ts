import { routesOf } from '../build/pages.mjs';
import { fillPath, pageHref, pagePattern, PAGES } from './addresses/paths';
import {
  aliasTarget,
  backTarget,
  findAlias,
  findPage,
  matchPage,
  menuOf,
  pageTable,
  readPageDeclarations,
  readPageTable,
  type PageRef,
} from './pages';
import { declaredPages } from './testing/pages';
import { fullHead } from './pageDefinition';

const table = declaredPages();
const page = (path: string) => table.find((entry) => entry.path === path);

describe("the site's pages, as the remotes declare them", () => {
  it('are the routes of the site, each with its module and title', () => {
    expect(table.map(({ path, remote, module, title }) => ({ path, remote, module, title }))).toEqual([
      { path: '', remote: 'radio', module: 'HomePage', title: 'Accueil' },
      { path: 'programme', remote: 'radio', module: 'ProgrammePage', title: 'Programme · Cette semaine' },
      { path: 'evenements', remote: 'radio', module: 'EventsPage', title: 'Évènements · Soirées et concerts' },
      { path: 'evenements/:slug', remote: 'radio', module: 'EventPage', title: 'Évènement' },
      { path: 'residences', remote: 'radio', module: 'ResidencesPage', title: 'Résidences' },
      { path: 'residences/:id', remote: 'radio', module: 'ResidencePage', title: 'Résidence' },
      { path: 'mes-residences', remote: 'radio', module: 'FollowedPage', title: 'Mes résidences' },
      { path: 'emissions', remote: 'radio', module: 'EpisodesPage', title: 'Émissions · Archive' },
      { path: 'emissions/:slug', remote: 'radio', module: 'EpisodePage', title: 'Émission' },
      { path: 'integrer', remote: 'radio', module: 'EmbedPage', title: 'Intégrer le lecteur' },
      { path: 'artistes', remote: 'radio', module: 'PlayedArtistsPage', title: 'Artistes' },
      { path: 'artistes/:slug', remote: 'radio', module: 'PlayedArtistPage', title: 'Artiste' },
      { path: 'proposer-une-emission', remote: 'radio', module: 'ProposeShowPage', title: 'Proposer une émission' },
      {
        path: 'proposer-une-emission/merci',
        remote: 'radio',
        module: 'ProposeShowPage',
        title: 'Merci ! · Proposer une émission',
      },
      {
        path: 'proposer-une-emission/supprimer',
        remote: 'radio',
        module: 'ProposeShowPage',
        title: 'Retirer une proposition',
      },
      { path: 'label', remote: 'label', module: 'LabelPage', title: 'Label' },
      { path: 'label/envoyer-une-demo', remote: 'label', module: 'SendDemoPage', title: 'Envoyer une démo' },
      {
        path: 'label/envoyer-une-demo/merci',
        remote: 'label',
        module: 'SendDemoPage',
        title: 'Merci ! · Envoyer une démo',
      },
      {
        path: 'label/envoyer-une-demo/supprimer',
        remote: 'label',
        module: 'SendDemoPage',
        title: 'Retirer une démo',
      },
      { path: 'a-propos', remote: 'about', module: 'AboutPage', title: 'Collectif Garonne À Propos' },
      { path: 'soutenir', remote: 'about', module: 'SupportPage', title: 'Nous soutenir' },
      {
        path: 'soutenir/merci',
        remote: 'about',
        module: 'SupportReturnPage',
        title: 'Votre paiement · Nous soutenir',
      },
      { path: 'admin', remote: 'admin', module: 'AdminPage', title: 'Espace des bénévoles' },
      {
        path: 'admin/invitation',
        remote: 'admin',
        module: 'InvitationPage',
        title: 'Invitation · Espace des bénévoles',
      },
    ]);
  });
});

describe("a page module's route, read by the build without running the module", () => {
  it('is the literal the module exports as `route`, one or a list', () => {
    expect(
      routesOf(
        "import x from 'y';\nexport const route: PageRoute = { path: 'label', title: `Label`, area: 'La page' } satisfies PageRoute;",
        'LabelPage.tsx',
      ),
    ).toEqual([{ path: 'label', title: 'Label', area: 'La page' }]);
    expect(
      routesOf(
        "export const route = [{ path: 'a', title: 'A', area: 'a' }, { path: 'b', title: 'B', area: 'b' }] as const;",
        'M.ts',
      ),
    ).toEqual([
      { path: 'a', title: 'A', area: 'a' },
      { path: 'b', title: 'B', area: 'b' },
    ]);
  });

  it('is none for a module that is not a page (the player)', () => {
    expect(routesOf('export default function Player() { return null; }', 'Player.tsx')).toEqual([]);
  });

  it('fails the build, naming the file, when it is not a literal', () => {
    expect(() =>
      routesOf("const base = 'x';\nexport const route = { path: base, title: 'T', area: 'a' };", 'X.tsx'),
    ).toThrow('X.tsx : route.path : la route doit être un littéral (du texte entre guillemets), pas Identifier');
    expect(() => routesOf("export const route = { ...other, title: 'T' };", 'Y.tsx')).toThrow(
      /Y\.tsx : route : la route doit être un littéral/,
    );
    expect(() => routesOf('export const route = { path: `a${b}` };', 'Z.tsx')).toThrow(/Z\.tsx : route\.path/);
  });
});

describe('readPageDeclarations', () => {
  it('names the field a declaration gets wrong', () => {
    expect(() =>
      readPageDeclarations([{ path: '/label', module: 'LabelPage', title: 'Label', area: 'x' }], 'label'),
    ).toThrow(/pages de « label » : 0\.path : chemin de page invalide/);
    expect(() => readPageDeclarations([{ path: 'label', module: 'LabelPage', area: 'x' }], 'label')).toThrow(
      /0\.title/,
    );
    expect(() => readPageDeclarations({ path: 'label' }, 'label')).toThrow(/pages de « label »/);
    expect(() =>
      readPageDeclarations(
        [{ path: 'label', module: 'LabelPage', title: 'Label', area: 'x', script: '<script>' }],
        'label',
      ),
    ).toThrow(/script/);
  });
});

describe('a page not for search engines', () => {
  it('is the editor’s or a visitor’s own, declared in its route, read from its module’s literal, and said in its head', () => {
    expect(page('admin')).toMatchObject({ remote: 'admin', module: 'AdminPage', noindex: true });
    expect(page('admin/invitation')).toMatchObject({ remote: 'admin', module: 'InvitationPage', noindex: true });
    expect(menuOf(table).some((link) => link.to.startsWith('/admin'))).toBe(false);
    // « Mes résidences » is each visitor's own list (docs/follow.md): in the menu, not for search engines.
    expect(page('mes-residences')).toMatchObject({ remote: 'radio', module: 'FollowedPage', noindex: true });
    // The page HelloAsso sends a visitor back to is their own payment's (docs/support.md); a
    // proposal's thanks and deletion are its proposer's (docs/proposals.md).
    expect(table.filter((entry) => entry.noindex === true).map((entry) => entry.path)).toEqual([
      'mes-residences',
      'proposer-une-emission/merci',
      'proposer-une-emission/supprimer',
      'label/envoyer-une-demo/merci',
      'label/envoyer-une-demo/supprimer',
      'soutenir/merci',
      'admin',
      'admin/invitation',
    ]);
    const admin = page('admin');
    if (admin === undefined) throw new Error('pas de page admin');
    expect(fullHead(admin, '/admin', 'https://radio.example.org', {}).noindex).toBe(true);
    expect(fullHead({ title: 'Label' }, '/label', 'https://radio.example.org', {}).noindex).toBeUndefined();
    expect(() =>
      readPageDeclarations([{ path: 'x', module: 'X', title: 'X', area: 'x', noindex: 'oui' }], 'admin'),
    ).toThrow(/0\.noindex/);
  });
});

/** A page of `remote` at `path`. */
const claim = (remote: PageRef['remote'], path: string, more: Partial<PageRef> = {}): PageRef => ({
  remote,
  path,
  module: 'X',
  title: path,
  area: 'a',
  ...more,
});

/** The table, and each claim refused as `refused` is told of it (`remote path : reason`). */
function tableOf(declared: Parameters<typeof pageTable>[0], owners?: readonly PageRef[]) {
  const refusals: string[] = [];
  const pages = pageTable(declared, {
    ...(owners === undefined ? {} : { owners }),
    refused: (page, reason) => refusals.push(`${page.remote} ${page.path} : ${reason}`),
  });
  return { pages: pages.map((page) => `${page.remote} ${page.path}`), refusals };
}

describe('pageTable: a page address belongs to one part', () => {
  it('gives the player none: it is on every page', () => {
    expect(tableOf({ player: [claim('player', 'label')], label: [claim('label', 'label')] })).toEqual({
      pages: ['label label'],
      refusals: [
        "player label : l'adresse /label ne peut pas être à la partie player : le lecteur est sur chaque page, il n'a pas d'adresse à lui",
      ],
    });
  });

  it("refuses every part the server's addresses, and the editor's to all but mf-admin", () => {
    const claims = [
      'api',
      'api/parts',
      'admin',
      'admin/invitation',
      'mf-label/remoteEntry',
      'assets',
      'media/x',
      'embed/lecteur',
      'oembed',
      'healthz',
      'readyz',
      'files/:font',
      'residences/:id/:file',
    ];
    const { pages, refusals } = tableOf({ radio: claims.map((path) => claim('radio', path)) });
    expect(pages).toEqual([]);
    expect(refusals).toEqual(
      expect.arrayContaining([
        "radio api : l'adresse /api est réservée au serveur (l'API du site et les déploiements des équipes)",
        "radio admin/invitation : l'adresse /admin/invitation est réservée à la partie admin (l'espace des bénévoles)",
        "radio residences/:id/:file : l'adresse /residences/:id/:file est réservée au serveur (le flux podcast d'une résidence)",
      ]),
    );
    expect(refusals).toHaveLength(claims.length);
    expect(
      tableOf({ admin: [claim('admin', 'admin'), claim('admin', 'admin/invitation'), claim('admin', 'api')] }),
    ).toEqual({
      pages: ['admin admin', 'admin admin/invitation'],
      refusals: ["admin api : l'adresse /api est réservée au serveur (l'API du site et les déploiements des équipes)"],
    });
  });

  it('refuses a path whose first segment is a parameter: it would take the shell’s files', () => {
    expect(tableOf({ label: [claim('label', ':slug'), claim('label', 'label/:slug')] })).toEqual({
      pages: ['label label/:slug'],
      refusals: [
        "label :slug : l'adresse /:slug commence par un paramètre : elle prendrait les adresses du serveur et les fichiers du shell (/api, /sw.js…)",
      ],
    });
  });

  it('leaves a contested address with the part that held it, whatever the registry’s order', () => {
    const held = [claim('label', 'label'), claim('radio', 'residences/:id')];
    // Radio comes first in the registry: it used to keep any address it claimed.
    expect(
      tableOf(
        {
          radio: [claim('radio', 'label'), claim('radio', 'residences/:id')],
          label: [claim('label', 'label'), claim('label', 'residences/axonberg')],
        },
        held,
      ),
    ).toEqual({
      pages: ['radio residences/:id', 'label label'],
      refusals: [
        "radio label : l'adresse /label appartient à la partie label",
        "label residences/axonberg : l'adresse /residences/axonberg appartient à la partie radio",
      ],
    });
    // Held by none of them: none keeps it.
    expect(tableOf({ radio: [claim('radio', 'disques')], label: [claim('label', 'disques')] })).toEqual({
      pages: [],
      refusals: [
        "radio disques : l'adresse /disques est aussi déclarée par la partie label : aucune des deux ne la garde",
        "label disques : l'adresse /disques est aussi déclarée par la partie radio : aucune des deux ne la garde",
      ],
    });
  });

  it('drops a former path on another part’s address from its page alone', () => {
    const pages = pageTable(
      {
        label: [claim('label', 'label', { aliases: ['a-propos', 'disques', 'admin/x'] })],
        about: [claim('about', 'a-propos')],
      },
      { owners: [claim('about', 'a-propos')], refused: () => undefined },
    );
    expect(pages).toEqual([claim('label', 'label', { aliases: ['disques'] }), claim('about', 'a-propos')]);
  });

  it('serving, takes the table made before from the same declarations as who held what', () => {
    // The server gives each remote's list again while its file is unchanged (site/page-routes.ts).
    const label = [claim('label', 'label')];
    const about = [claim('about', 'a-propos')];
    expect(tableOf({ label, about }).pages).toEqual(['label label', 'about a-propos']);
    // Then radio's file, copied by hand, claims label's page and about's.
    const radio = [claim('radio', ''), claim('radio', 'label'), claim('radio', 'a-propos')];
    expect(tableOf({ radio, label, about })).toEqual({
      pages: ['radio ', 'label label', 'about a-propos'],
      refusals: [
        "radio label : l'adresse /label appartient à la partie label",
        "radio a-propos : l'adresse /a-propos appartient à la partie about",
      ],
    });
    // Label redeployed (a new list): it keeps its address, held in the table before.
    expect(tableOf({ radio, label: [claim('label', 'label')], about }).pages).toEqual([
      'radio ',
      'label label',
      'about a-propos',
    ]);
  });

  it('leaves every page the parts declare today where it is', () => {
    const refusals: string[] = [];
    const declared = Object.fromEntries(
      [...new Set(table.map((entry) => entry.remote))].map((remote) => [
        remote,
        table.filter((entry) => entry.remote === remote),
      ]),
    );
    expect(pageTable(declared, { refused: (_page, reason) => refusals.push(reason) })).toEqual(table);
    expect(refusals).toEqual([]);
  });

  it('reads back the table the server wrote, and nothing from a forged one', () => {
    expect(readPageTable(JSON.parse(JSON.stringify(table)))).toEqual(table);
    expect(readPageTable([{ ...table[0], remote: 'ailleurs' }])).toEqual([]);
    expect(readPageTable('pas une table')).toEqual([]);
  });
});

describe('matchPage', () => {
  it.each([
    ['/', '', {}],
    ['/a-propos', 'a-propos', {}],
    ['/residences', 'residences', {}],
    ['/residences/', 'residences', {}],
    ['/residences/axonberg', 'residences/:id', { id: 'axonberg' }],
    ['/residences/Basse%20Cour', 'residences/:id', { id: 'Basse Cour' }],
    ['/label', 'label', {}],
  ])('%s', (path, pattern, params) => {
    expect(matchPage(path, table)).toEqual({ page: page(pattern), params });
  });

  it('sends an unknown or malformed path to the home page, as the shell does', () => {
    expect(findPage('/nulle-part', table)).toBeNull();
    expect(matchPage('/nulle-part', table)?.page).toBe(page(''));
    expect(matchPage('/residences/a/b', table)?.page).toBe(page(''));
    expect(matchPage('/residences/%E0%A4%A', table)?.page).toBe(page(''));
    expect(matchPage('/', [])).toBeNull();
  });

  it('ranks paths as the shell’s router does: a word before a parameter, letters in their case', () => {
    const episode: PageRef = { remote: 'radio', path: 'emissions/:slug', module: 'EpisodePage', title: 'É', area: 'e' };
    const news: PageRef = { remote: 'radio', path: 'emissions/nouveautes', module: 'HomePage', title: 'N', area: 'n' };
    expect(findPage('/emissions/nouveautes', [episode, news])?.page).toBe(news);
    expect(findPage('/emissions/axonberg-synapses-1', [episode, news])?.page).toBe(episode);
    expect(findPage('/Label', table)).toBeNull();
  });
});

describe('the menu and the back button, from the table', () => {
  it('lists the pages with a menu label, in order, with their address and module', () => {
    expect(menuOf(table)).toEqual([
      { to: '/programme', label: 'Programme', page: { remote: 'radio', module: 'ProgrammePage' } },
      { to: '/evenements', label: 'Évènements', page: { remote: 'radio', module: 'EventsPage' } },
      { to: '/residences', label: 'Résidences', page: { remote: 'radio', module: 'ResidencesPage' } },
      { to: '/mes-residences', label: 'Mes résidences', page: { remote: 'radio', module: 'FollowedPage' } },
      { to: '/emissions', label: 'Émissions', page: { remote: 'radio', module: 'EpisodesPage' } },
      { to: '/label', label: 'Label', page: { remote: 'label', module: 'LabelPage' } },
      { to: '/a-propos', label: 'À propos', page: { remote: 'about', module: 'AboutPage' } },
    ]);
  });

  it.each([
    ['/residences/axonberg', '/residences'],
    ['/residences', '/'],
    ['/label', '/'],
    ['/a-propos', '/'],
    ['/nulle-part', '/'],
  ])('goes back from %s to %s', (path, target) => {
    expect(backTarget(path, table)).toBe(target);
  });
});

describe('addresses built from the page table, by module', () => {
  it('fills in and encodes a page address', () => {
    expect(fillPath('residences/:id', { id: 'Basse Cour' })).toBe('/residences/Basse%20Cour');
    expect(fillPath('')).toBe('/');
    expect(pageHref(table, PAGES.residence, { id: 'a/b' })).toBe('/residences/a%2Fb');
    expect(pageHref(table, PAGES.episodes, {}, { residence: 'axonberg', q: 'dub & co' })).toBe(
      '/emissions?residence=axonberg&q=dub+%26+co',
    );
    expect(pageHref(table, PAGES.programme, {}, '?semaine=2026-11-30')).toBe('/programme?semaine=2026-11-30');
  });

  it('follows a page whose route its team renamed, and is null for a page the table lacks', () => {
    const renamed = table.map((entry) =>
      entry.module === 'EpisodePage' ? { ...entry, path: 'episodes/:slug' } : entry,
    );
    expect(pageHref(renamed, PAGES.episode, { slug: 'a-1' })).toBe('/episodes/a-1');
    expect(pagePattern(renamed, PAGES.episode)).toBe('episodes/:slug');
    const withoutLabel = table.filter((entry) => entry.remote !== 'label');
    expect(pageHref(withoutLabel, PAGES.label)).toBeNull();
    expect(pagePattern(withoutLabel, PAGES.label)).toBeNull();
    // A parameter missing is no address (the page's path needs it).
    expect(pageHref(table, PAGES.residence)).toBeNull();
  });

  it('takes, for a module with several paths, the first whose parameters are given', () => {
    const two: PageRef[] = [
      { path: 'agenda/:year', remote: 'about', module: 'AboutPage', title: 'A', area: 'a' },
      { path: 'agenda', remote: 'about', module: 'AboutPage', title: 'A', area: 'a' },
    ];
    expect(pageHref(two, PAGES.about)).toBe('/agenda');
    expect(pageHref(two, PAGES.about, { year: '2026' })).toBe('/agenda/2026');
  });
});

describe('former paths of a page (aliases)', () => {
  const renamed = table.map((entry) =>
    entry.module === 'EpisodePage' ? { ...entry, path: 'episodes/:slug', aliases: ['emissions/:slug'] } : entry,
  );

  it('name the page, with the parameters read from the former path', () => {
    const moved = findAlias('/emissions/axonberg-2', renamed);
    expect(moved?.page.module).toBe('EpisodePage');
    expect(moved === null ? null : aliasTarget(moved)).toBe('/episodes/axonberg-2');
    expect(findPage('/emissions/axonberg-2', renamed)).toBeNull();
  });

  it('never take a path a page has today', () => {
    const claimed = table.map((entry) =>
      entry.module === 'LabelPage' ? { ...entry, aliases: ['a-propos', 'disques'] } : entry,
    );
    expect(findAlias('/a-propos', claimed)).toBeNull();
    expect(findAlias('/disques', claimed)?.page.module).toBe('LabelPage');
  });

  it("are checked like paths in a remote's declarations", () => {
    expect(() =>
      readPageDeclarations([{ path: 'x', module: 'X', title: 'X', area: 'x', aliases: ['/../etc'] }], 'radio'),
    ).toThrow('pages de « radio » : 0.aliases.0 : chemin de page invalide');
  });
});
