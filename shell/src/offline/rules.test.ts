import { isStorable, PAGE_TABLE_MAX, PAGE_TABLE_MESSAGE, pageTableText, requestKind, type RequestFacts } from './rules';

const ORIGIN = 'https://radio.example.org';

function request(
  path: string,
  facts: Partial<Omit<RequestFacts, 'headers'>> & { headers?: Record<string, string> } = {},
) {
  const headers = new Map(Object.entries(facts.headers ?? {}));
  return {
    url: path.startsWith('http') ? path : `${ORIGIN}${path}`,
    method: 'GET',
    mode: 'no-cors',
    destination: 'script',
    referrer: `${ORIGIN}/`,
    ...facts,
    headers: { get: (name: string) => headers.get(name) ?? null },
  };
}
const page = (path: string) => request(path, { mode: 'navigate', destination: 'document' });

describe('what the service worker does with a request', () => {
  it('pages, network first', () => {
    expect(requestKind(page('/'), ORIGIN)).toBe('page');
    expect(requestKind(page('/residences/axonberg?x=1'), ORIGIN)).toBe('page');
    // Typed in the address bar: no referrer.
    expect(requestKind({ ...page('/label'), referrer: '' }, ORIGIN)).toBe('page');
  });

  it('leaves the parts’ entries to the browser, whatever part: their names cannot be checked', () => {
    expect(requestKind(request('/mf-radio/remoteEntry.js'), ORIGIN)).toBeNull();
    expect(requestKind(request('/mf-about/mf-manifest.json', { destination: '' }), ORIGIN)).toBeNull();
  });

  it('content-hashed files, cache first; their source maps and unhashed files are left alone', () => {
    expect(requestKind(request('/main.3af3907eb1c2d4e5f60718293a4b5c6d.js'), ORIGIN)).toBe('hashed');
    expect(
      requestKind(request('/mf-radio/412.3af3907eb1c2d4e5f60718293a4b5c6d.css', { destination: 'style' }), ORIGIN),
    ).toBe('hashed');
    expect(
      requestKind(request('/files/archivo.3af3907eb1c2d4e5f60718293a4b5c6d.woff2', { destination: 'font' }), ORIGIN),
    ).toBe('hashed');
    expect(requestKind(request('/main.3af3907eb1c2d4e5f60718293a4b5c6d.js.map'), ORIGIN)).toBeNull();
    expect(requestKind(request('/mf-radio/main.js'), ORIGIN)).toBeNull();
  });

  it('leaves to the browser a name of 10 hex digits (a part built before): a forged file could match it', () => {
    expect(requestKind(request('/mf-radio/412.0123456789.js'), ORIGIN)).toBeNull();
  });

  it('the site’s pictures', () => {
    expect(requestKind(request('/assets/images/residences/a-800.webp', { destination: 'image' }), ORIGIN)).toBe(
      'image',
    );
  });

  it('leaves alone every /api address: the now-playing, its live channel, the rest', () => {
    for (const path of ['/api/nowplaying', '/api/nowplaying/events', '/api/podcasts?limit=8', '/api']) {
      expect(requestKind(request(path, { destination: '' }), ORIGIN)).toBeNull();
    }
    expect(requestKind(request('/autre', { headers: { accept: 'text/event-stream' } }), ORIGIN)).toBeNull();
  });

  it('leaves alone audio and video (the streams, replays), ranges, another origin, anything but GET', () => {
    expect(requestKind(request('/assets/audio/demo.mp3', { destination: 'audio' }), ORIGIN)).toBeNull();
    expect(
      requestKind(request('/main.3af3907eb1c2d4e5f60718293a4b5c6d.js', { headers: { range: 'bytes=0-' } }), ORIGIN),
    ).toBeNull();
    expect(requestKind(request('https://stream.example.org/live.mp3', { destination: 'audio' }), ORIGIN)).toBeNull();
    expect(requestKind(request('https://cdn.example.org/main.3af3907eb1c2d4e5f60718293a4b5c6d.js'), ORIGIN)).toBeNull();
    expect(requestKind(request('/main.3af3907eb1c2d4e5f60718293a4b5c6d.js', { method: 'POST' }), ORIGIN)).toBeNull();
  });

  it('leaves alone the live’s timeline under /direct/: its playlists change every segment', () => {
    for (const path of ['/direct/live.m3u8', '/direct/econome/index.m3u8?_HLS_skip=YES', '/direct/window.json']) {
      expect(requestKind(request(path, { destination: '' }), ORIGIN)).toBeNull();
    }
    expect(requestKind(request('/direct/normale/177649218.mp3', { destination: '' }), ORIGIN)).toBeNull();
    expect(requestKind(request('/direct/normale/index.m3u8', { destination: 'audio' }), ORIGIN)).toBeNull();
  });

  it('leaves alone the partner embed: its pages and whatever they ask for', () => {
    expect(requestKind(page('/embed/lecteur?residence=axonberg'), ORIGIN)).toBeNull();
    expect(requestKind(request('/embed/collectif-player.js'), ORIGIN)).toBeNull();
    expect(
      requestKind(
        request('/mf-player/12.3af3907eb1c2d4e5f60718293a4b5c6d.js', {
          referrer: `${ORIGIN}/embed/lecteur?format=carte`,
        }),
        ORIGIN,
      ),
    ).toBeNull();
    // The tab's icon names no referrer: the embed's as the site's.
    expect(requestKind(request('/assets/images/logo.svg', { destination: 'image', referrer: '' }), ORIGIN)).toBeNull();
    // A frame of the site's own (the embed's preview) is not a page of the site.
    expect(requestKind(request('/integrer', { mode: 'navigate', destination: 'iframe' }), ORIGIN)).toBeNull();
  });
});

describe('which pages are kept', () => {
  it('not those answered no-store or private', () => {
    expect(isStorable('public, max-age=0, s-maxage=10, stale-while-revalidate=60')).toBe(true);
    expect(isStorable(null)).toBe(true);
    expect(isStorable('no-store')).toBe(false);
    expect(isStorable('Private, max-age=0')).toBe(false);
  });
});

describe('the table of pages a page sends the worker', () => {
  const page = { path: '/residences/:id', remote: 'radio', module: 'ResidencePage' };

  it('is kept as the JSON of its pages', () => {
    expect(pageTableText({ kind: PAGE_TABLE_MESSAGE, pages: [page] })).toBe(JSON.stringify([page]));
  });

  it('is not kept when it is another message, or holds no page', () => {
    for (const data of [
      null,
      'collectif:table-des-pages',
      [page],
      { pages: [page] },
      { kind: 'autre', pages: [page] },
      { kind: PAGE_TABLE_MESSAGE, pages: {} },
      { kind: PAGE_TABLE_MESSAGE, pages: [] },
    ])
      expect(pageTableText(data)).toBeNull();
  });

  it('is not kept past its bounds: too many pages, or too long a text', () => {
    const many = Array.from({ length: PAGE_TABLE_MAX.pages + 1 }, () => page);
    expect(pageTableText({ kind: PAGE_TABLE_MESSAGE, pages: many })).toBeNull();
    const long = [{ ...page, path: `/${'a'.repeat(PAGE_TABLE_MAX.chars)}` }];
    expect(pageTableText({ kind: PAGE_TABLE_MESSAGE, pages: long })).toBeNull();
  });
});
