import { OEMBED_JSON_TYPE, oembedAlternate, oembedEndpoint, oembedTitle } from './oembed';

const ORIGIN = 'https://radio.example.org';

describe('oembedAlternate', () => {
  it('points at the endpoint with the page’s whole address, escaped, in JSON', () => {
    expect(oembedAlternate(ORIGIN, '/residences/axonberg', 'Axonberg · Synapses')).toEqual({
      type: OEMBED_JSON_TYPE,
      title: 'Axonberg · Synapses',
      href: 'https://radio.example.org/oembed?url=https%3A%2F%2Fradio.example.org%2Fresidences%2Faxonberg&format=json',
    });
    expect(oembedAlternate(ORIGIN, '/', 'x').href).toBe(oembedEndpoint(ORIGIN, `${ORIGIN}/`));
    // Whatever the path holds stays inside the `url` parameter.
    const href = new URL(oembedAlternate(ORIGIN, '/emissions/a?b=1&format=xml#c', 'x').href);
    expect(href.searchParams.get('url')).toBe(`${ORIGIN}/emissions/a?b=1&format=xml#c`);
    expect(href.searchParams.getAll('format')).toEqual(['json']);
  });
});

describe('oembedTitle', () => {
  it('names the live stream after the site, and a show after its artist', () => {
    expect(oembedTitle('Collectif Garonne', null)).toBe('Le direct · Collectif Garonne');
    expect(oembedTitle('Collectif Garonne', { artist: 'Axonberg', show: 'Synapses' })).toBe('Axonberg · Synapses');
    expect(oembedTitle('Collectif Garonne', { artist: 'Axonberg', show: ' ' })).toBe('Axonberg');
  });
});
