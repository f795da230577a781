import { matchPage, PAGES } from './pages';

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
