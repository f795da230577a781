import { pageForPath } from './prefetch';

describe('pageForPath', () => {
  it.each([
    ['/', { remote: 'radio', module: 'HomePage' }],
    ['/residences', { remote: 'radio', module: 'ResidencesPage' }],
    ['/residences/axonberg', { remote: 'radio', module: 'ResidencePage' }],
    ['/label', { remote: 'label', module: 'LabelPage' }],
    ['/a-propos', { remote: 'about', module: 'AboutPage' }],
    ['/nimporte/quoi', { remote: 'radio', module: 'HomePage' }],
  ])('finds the remote module behind %s', (path, expected) => {
    expect(pageForPath(path)).toMatchObject(expected);
  });
});
