import { backTarget, href, matchPage, MENU, PAGES } from './pages';

describe('matchPage', () => {
  it.each([
    ['/', PAGES.home, {}],
    ['/a-propos', PAGES.about, {}],
    ['/residences', PAGES.residences, {}],
    ['/residences/', PAGES.residences, {}],
    ['/residences/axonberg', PAGES.residence, { id: 'axonberg' }],
    ['/residences/Basse%20Cour', PAGES.residence, { id: 'Basse Cour' }],
    ['/label', PAGES.label, {}],
  ])('%s', (path, page, params) => {
    expect(matchPage(path)).toEqual({ page, params });
  });

  it('sends an unknown or malformed path to the home page, as the shell does', () => {
    expect(matchPage('/nulle-part').page).toBe(PAGES.home);
    expect(matchPage('/residences/a/b').page).toBe(PAGES.home);
    expect(matchPage('/residences/%E0%A4%A').page).toBe(PAGES.home);
  });
});

describe('the menu and the back button, from the table', () => {
  it('lists the pages with a menu label, in order, with their address and module', () => {
    expect(MENU).toEqual([
      { to: '/residences', label: 'Résidences', page: { remote: 'radio', module: 'ResidencesPage' } },
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
    expect(backTarget(path)).toBe(target);
  });

  it('fills in and encodes a page address', () => {
    expect(href(PAGES.residence, { id: 'Basse Cour' })).toBe('/residences/Basse%20Cour');
    expect(href(PAGES.home)).toBe('/');
  });
});
