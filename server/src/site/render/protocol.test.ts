import { AnswerRefused, readMessage, readOutcome, readTrialOutcome, MAX_PAGE_BYTES } from './protocol';

// What a renderer sends is input (docs/rendering.md, « What a renderer may say »): each message is
// checked by one schema, a page's answer field by field.

const ORIGIN = 'https://radio.example.org';
const page = (fields: Record<string, unknown> = {}) => ({
  kind: 'page',
  status: 200,
  head: { title: 'Accueil', description: 'La radio', canonical: `${ORIGIN}/` },
  preloads: [],
  body: '<h1>Accueil</h1>',
  state: '{}',
  router: '{}',
  ...fields,
});

describe('a renderer’s message', () => {
  it('is taken when it is one the protocol knows, its texts cut to their bound', () => {
    expect(readMessage({ type: 'ready' })).toEqual({ type: 'ready' });
    expect(readMessage({ type: 'api', id: 3, request: 1, url: '/api/podcasts' })).toEqual({
      type: 'api',
      id: 3,
      request: 1,
      url: '/api/podcasts',
    });
    const long = readMessage({ type: 'log', id: 1, level: 'warn', message: 'x'.repeat(5000) });
    expect(long?.type === 'log' && long.message.length).toBe(2001);
  });

  it('is dropped when its type, its part or its fields are not the protocol’s', () => {
    for (const message of [
      null,
      'done',
      { type: 'exec', id: 1 },
      { type: 'reading', id: 1, part: 'pirate', version: 'v', where: 'w' },
      { type: 'api', id: 1, request: 1, url: 'x'.repeat(5000) },
      { type: 'api', id: -1, request: 1, url: '/api' },
      { type: 'log', id: 1, level: 'error', message: 'm' },
    ]) {
      expect([message, readMessage(message)]).toEqual([message, null]);
    }
  });
});

describe('a page’s answer', () => {
  it('is taken as the page when every field is what a render returns', () => {
    expect(readOutcome(page(), ORIGIN)).toEqual(page());
    expect(readOutcome({ kind: 'redirect', location: '/' }, ORIGIN)).toEqual({ kind: 'redirect', location: '/' });
  });

  it('is refused when a field is missing or of another kind, or when it is too large', () => {
    for (const value of [
      page({ status: '200' }),
      page({ head: { title: 'Accueil' } }),
      page({ body: 42 }),
      page({ status: 302 - 200 }),
      { kind: 'script', body: '<script>' },
      page({ body: 'x'.repeat(MAX_PAGE_BYTES + 1) }),
    ]) {
      expect(() => readOutcome(value, ORIGIN)).toThrow(AnswerRefused);
    }
  });

  it('never sends a visitor off the site', () => {
    for (const location of [
      'https://pirate.example/',
      '//pirate.example/',
      '/\\pirate.example/',
      'javascript:alert(1)',
      '/\tpirate',
      'label',
    ]) {
      expect(() => readOutcome({ kind: 'redirect', location }, ORIGIN)).toThrow(/redirection hors du site refusée/);
    }
  });
});

describe('a trial’s answer', () => {
  it('is its outcome, or refused', () => {
    expect(readTrialOutcome({ ok: true, version: 'v1', pages: 2 })).toEqual({ ok: true, version: 'v1', pages: 2 });
    expect(readTrialOutcome({ ok: false, reason: 'cassé' })).toEqual({ ok: false, reason: 'cassé' });
    expect(() => readTrialOutcome({ ok: true })).toThrow(AnswerRefused);
    expect(() => readTrialOutcome({ kind: 'redirect', location: 'https://pirate.example/' })).toThrow(AnswerRefused);
  });
});
