import { routesOf } from '../build/pages.mjs';
import {
  backTarget,
  findPage,
  href,
  matchPage,
  menuOf,
  pageTable,
  readPageDeclarations,
  readPageTable,
  type PageRef,
} from './pages';
import { declaredPages } from './testing/pages';

const table = declaredPages();
const page = (path: string) => table.find((entry) => entry.path === path);

describe("the site's pages, as the remotes declare them", () => {
  it('are the routes of the site, each with its module and title', () => {
    expect(table.map(({ path, remote, module, title }) => ({ path, remote, module, title }))).toEqual([
      { path: '', remote: 'radio', module: 'HomePage', title: 'Accueil' },
      { path: 'programme', remote: 'radio', module: 'ProgrammePage', title: 'Programme · Cette semaine' },
      { path: 'residences', remote: 'radio', module: 'ResidencesPage', title: 'Résidences' },
      { path: 'residences/:id', remote: 'radio', module: 'ResidencePage', title: 'Résidence' },
      { path: 'emissions', remote: 'radio', module: 'EpisodesPage', title: 'Émissions · Archive' },
      { path: 'emissions/:slug', remote: 'radio', module: 'EpisodePage', title: 'Émission' },
      { path: 'integrer', remote: 'radio', module: 'EmbedPage', title: 'Intégrer le lecteur' },
      { path: 'label', remote: 'label', module: 'LabelPage', title: 'Label' },
      { path: 'a-propos', remote: 'about', module: 'AboutPage', title: 'Collectif Garonne À Propos' },
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

describe('pageTable', () => {
  it('keeps a path for the first remote in the registry that claims it', () => {
    const mine: PageRef = { remote: 'radio', path: 'label', module: 'HomePage', title: 'Radio', area: 'a' };
    const theirs: PageRef = { remote: 'label', path: 'label', module: 'LabelPage', title: 'Label', area: 'b' };
    expect(pageTable({ label: [theirs], radio: [mine] })).toEqual([mine]);
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
      { to: '/residences', label: 'Résidences', page: { remote: 'radio', module: 'ResidencesPage' } },
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

  it('fills in and encodes a page address', () => {
    expect(href({ path: 'residences/:id' }, { id: 'Basse Cour' })).toBe('/residences/Basse%20Cour');
    expect(href({ path: '' })).toBe('/');
  });
});
