import { AnswerRefused, readMessage, readOutcome, readTaskAnswer, readTrialOutcome, MAX_PAGE_BYTES } from './protocol';

// What a renderer sends is input (docs/rendering.md, « The channel »): each message is checked by
// one schema, a page's answer field by field.

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

const TASK = '0b5f8a4e-2c1d-4e8f-9a6b-3c2d1e0f9a8b';
const json = (message: unknown) => JSON.stringify(message);

describe('a renderer’s message on the host channel', () => {
  it('is taken when it is one the protocol knows, its texts cut to their bound', () => {
    expect(readMessage(json({ type: 'ready' }))).toEqual({ type: 'ready' });
    expect(readMessage(json({ type: 'api', task: TASK, url: '/api/podcasts' }))).toEqual({
      type: 'api',
      task: TASK,
      url: '/api/podcasts',
    });
    const long = readMessage(json({ type: 'log', task: TASK, level: 'warn', message: 'x'.repeat(5000) }));
    expect(long?.type === 'log' && long.message.length).toBe(2001);
  });

  it('is refused when it is not JSON, or its type, its part or its fields are not the protocol’s', () => {
    for (const body of [
      '',
      '{{{{{',
      '\u0000\u0000\u0000\u0006\u00ff\u000f',
      'null',
      '"ready"',
      json({ type: 'exec', task: TASK }),
      json({ type: 'reading', task: TASK, part: 'pirate', version: 'v', where: 'w' }),
      json({ type: 'api', task: TASK, url: 'x'.repeat(5000) }),
      json({ type: 'api', task: 'une-autre-tâche', url: '/api' }),
      json({ type: 'log', task: TASK, level: 'error', message: 'm' }),
    ]) {
      expect([body, readMessage(body)]).toEqual([body, null]);
    }
  });
});

describe('a task’s answer on the render channel', () => {
  it('is its value or its failure, and anything else is refused', () => {
    expect(readTaskAnswer(json({ ok: true, value: page() }))).toEqual({ ok: true, value: page() });
    expect(readTaskAnswer(json({ ok: false, message: 'cassé' }))).toEqual({ ok: false, message: 'cassé' });
    for (const body of ['', 'HTTP/1.1', json({ ok: 'oui' }), json({ value: 1 })]) {
      expect(() => readTaskAnswer(body)).toThrow(AnswerRefused);
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
