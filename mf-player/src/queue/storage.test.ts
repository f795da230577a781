import { QUEUE_MAX } from '@collectif/shared';
import { entryOf, LABEL_MAX, readAddRequest, readStoredQueue } from './storage';

describe('the queue’s items as input (docs/player.md, « The queue »)', () => {
  it('keeps a slug and a start in whole seconds, nothing else', () => {
    expect(entryOf({ slug: 'axonberg-synapses-11', start: 90.7, url: 'https://evil.example/a.mp3' })).toEqual({
      slug: 'axonberg-synapses-11',
      start: 90,
    });
    expect(entryOf({ slug: 'axonberg-synapses-11' })).toEqual({ slug: 'axonberg-synapses-11' });
  });

  it('refuses what cannot be an episode’s slug or a start', () => {
    for (const hostile of [
      null,
      'axonberg',
      ['axonberg'],
      { slug: '../../api/admin' },
      { slug: 'javascript:alert(1)' },
      { slug: '<script>alert(1)</script>' },
      { slug: 'a'.repeat(2000) },
      { slug: 'Axonberg' },
      { slug: 42 },
      { slug: 'un', start: -1 },
      { slug: 'un', start: Number.NaN },
      { slug: 'un', start: 1e12 },
      { slug: 'un', start: '90' },
    ]) {
      expect(entryOf(hostile)).toBeNull();
    }
  });

  it('reads a stored queue once per item, the first QUEUE_MAX, and nothing from a text that is not one', () => {
    expect(readStoredQueue(JSON.stringify([{ slug: 'un' }, { slug: 'un' }, { slug: 'un', start: 5 }]))).toEqual([
      { slug: 'un' },
      { slug: 'un', start: 5 },
    ]);
    expect(readStoredQueue(null)).toEqual([]);
    expect(readStoredQueue('{"0":{"slug":"un"}}')).toEqual([]);
    expect(readStoredQueue(`[${'{"slug":"un"},'.repeat(2000)}{"slug":"deux"}]`)).toEqual([]);
    const full = Array.from({ length: QUEUE_MAX + 1 }, (_, i) => ({ slug: `e-${String(i)}` }));
    expect(readStoredQueue(JSON.stringify(full)).at(-1)).toEqual({ slug: `e-${String(QUEUE_MAX - 1)}` });
  });

  it('reads a queue-add, its label bounded and without control characters', () => {
    const read = readAddRequest({
      items: [{ slug: 'un' }, { slug: 'x y' }, { slug: 'deux', start: 30 }],
      label: `\u0007<b>Axonberg</b>\n${'x'.repeat(2000)}`,
    });
    expect(read).toEqual({
      items: [{ slug: 'un' }, { slug: 'deux', start: 30 }],
      asked: 3,
      label: `<b>Axonberg</b> ${'x'.repeat(LABEL_MAX - 16)}`,
    });
    expect(readAddRequest(null)).toBe('un objet est attendu dans « detail »');
    expect(readAddRequest({ items: { slug: 'un' } })).toBe('« items » doit être une liste d’épisodes');
    expect(readAddRequest({ items: [], label: 42 })).toEqual({ items: [], asked: 0 });
  });
});
