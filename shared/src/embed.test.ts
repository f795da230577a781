import {
  DEFAULT_EMBED_OPTIONS,
  EMBED_HEIGHTS,
  EMBED_TIMELINE_HEIGHTS,
  embedElement,
  embedFrameSnippet,
  embedHeight,
  embedQuery,
  embedScriptSnippet,
  readEmbedOptions,
  type EmbedOptions,
} from './embed';

// The partner's choices as the element, the iframe and the configurator read and write them
// (docs/embed.md, « The choices »): here the timeline's, `differe`, off unless asked.

const ORIGIN = 'https://radio.example.org';
const fromQuery = (query: string) => {
  const params = new URLSearchParams(query);
  return readEmbedOptions((name) => params.get(name));
};

describe('the timeline’s choice (differe)', () => {
  it('is off by default, in an address and on an element', () => {
    expect(DEFAULT_EMBED_OPTIONS.timeline).toBe(false);
    expect(fromQuery('').timeline).toBe(false);
    expect(fromQuery('residence=axonberg&format=carte').timeline).toBe(false);
    expect(readEmbedOptions(() => null).timeline).toBe(false);
  });

  it('is on with differe=1 (or oui, true), and as a bare attribute', () => {
    for (const query of ['differe=1', 'differe=oui', 'differe=TRUE', 'differe=%201%20', 'differe', 'differe=']) {
      expect([query, fromQuery(query).timeline]).toEqual([query, true]);
    }
    // `<collectif-player differe>`: the attribute's value is ''.
    expect(readEmbedOptions((name) => (name === 'differe' ? '' : null)).timeline).toBe(true);
  });

  it('ignores any other value, hostile ones too, and keeps the other choices', () => {
    for (const value of [
      '0',
      'non',
      'false',
      '2',
      '1;',
      '"><script>alert(1)</script>',
      '1'.repeat(5000),
      'javascript:1',
    ]) {
      const options = fromQuery(new URLSearchParams({ differe: value, theme: 'clair' }).toString());
      expect([value.slice(0, 40), options.timeline]).toEqual([value.slice(0, 40), false]);
      expect(options.theme).toBe('clair');
    }
  });

  it('is written as differe=1 in an address, a bare attribute on the element, and read back', () => {
    const options: EmbedOptions = {
      ...DEFAULT_EMBED_OPTIONS,
      source: { kind: 'residence', id: 'axonberg' },
      timeline: true,
    };
    expect(embedQuery(options)).toBe('?residence=axonberg&differe=1');
    expect(fromQuery(embedQuery(options).slice(1))).toEqual(options);
    expect(embedQuery({ ...options, timeline: false })).toBe('?residence=axonberg');
    expect(embedElement(`${ORIGIN}/api`, options)).toBe(
      `<collectif-player api-base="${ORIGIN}/api" residence="axonberg" differe></collectif-player>`,
    );
    expect(embedScriptSnippet(ORIGIN, { ...DEFAULT_EMBED_OPTIONS, timeline: true })).toBe(
      `<script src="${ORIGIN}/embed/collectif-player.js" defer></script>\n` +
        `<collectif-player api-base="${ORIGIN}/api" differe></collectif-player>`,
    );
  });

  it('gives the iframe the room of the timeline’s row', () => {
    const live = { ...DEFAULT_EMBED_OPTIONS, timeline: true };
    expect(embedHeight(live)).toBe(EMBED_HEIGHTS.barre + EMBED_TIMELINE_HEIGHTS.barre);
    expect(embedHeight({ ...live, format: 'carte' })).toBe(EMBED_HEIGHTS.carte + EMBED_TIMELINE_HEIGHTS.carte);
    expect(embedHeight(DEFAULT_EMBED_OPTIONS)).toBe(EMBED_HEIGHTS.barre);
    expect(embedFrameSnippet(ORIGIN, live, 'Collectif Garonne')).toBe(
      `<iframe src="${ORIGIN}/embed/lecteur?differe=1" title="Lecteur Collectif Garonne : le direct" ` +
        `width="100%" height="${String(EMBED_HEIGHTS.barre + EMBED_TIMELINE_HEIGHTS.barre)}" ` +
        'frameborder="0" allow="autoplay" loading="lazy"></iframe>',
    );
  });
});
