import { domEventName, QUEUE_MAX } from './contract';
import { emit, lastPayload, on, resetEvents } from './bus';

const replay = {
  url: 'https://example.org/a.mp3',
  duration: 60,
  artist: 'Artiste',
  show: 'Émission',
  cover: '/assets/images/default-cover.webp',
};

/** Every subscription a test makes ends with it: a listener left behind would hear the next test. */
const subscriptions: (() => void)[] = [];
function listen<K extends Parameters<typeof on>[0]>(name: K, handler: Parameters<typeof on<K>>[1]): () => void {
  const off = on(name, handler);
  subscriptions.push(off);
  return off;
}

afterEach(() => {
  for (const off of subscriptions.splice(0)) off();
  resetEvents();
});

describe('event bus', () => {
  it('delivers a payload to a subscriber and stops after unsubscribe', () => {
    const seen: string[] = [];
    const off = listen('replay-selected', (p) => seen.push(p.artist));
    emit('replay-selected', replay);
    off();
    emit('replay-selected', { ...replay, artist: 'Autre' });
    expect(seen).toEqual(['Artiste']);
  });

  it('does not replay replay-selected to a subscriber that comes after one heard it', () => {
    const first: unknown[] = [];
    const off = listen('replay-selected', (p) => first.push(p));
    emit('replay-selected', replay);
    off();
    const seen: unknown[] = [];
    listen('replay-selected', (p) => seen.push(p));
    expect(first).toEqual([replay]);
    expect(seen).toEqual([]);
  });

  it('keeps a choice made before the player listens, and gives it to the first subscriber only', () => {
    // A card hydrated before the player's script ran: the visitor's tap is not lost.
    emit('replay-selected', { ...replay, artist: 'Première' });
    emit('replay-selected', replay);
    const seen: string[] = [];
    const off = listen('replay-selected', (p) => seen.push(p.artist));
    off();
    const later: string[] = [];
    listen('replay-selected', (p) => later.push(p.artist));
    expect(seen).toEqual(['Artiste']);
    expect(later).toEqual([]);
  });

  it('keeps a request for the live stream the same way, and the latest of the two choices wins', () => {
    emit('replay-selected', replay);
    emit('live-selected', {});
    const replays: unknown[] = [];
    const lives: unknown[] = [];
    listen('replay-selected', (p) => replays.push(p));
    listen('live-selected', (p) => lives.push(p));
    expect(replays).toEqual([]);
    expect(lives).toEqual([{}]);
  });

  it('keeps every queue-add made before the player listens, in order, beside the other requests to the player', () => {
    // « Ajouter à la file » on three pages before the player's script arrived: all three count,
    // and the replay chosen meanwhile still plays.
    emit('replay-selected', replay);
    emit('queue-add', { items: [{ slug: 'un' }] });
    emit('queue-add', { items: [{ slug: 'deux', start: 90 }], label: 'Résidence' });
    emit('live-selected', {});
    emit('queue-add', { items: [{ slug: 'trois' }] });
    const adds: unknown[] = [];
    const lives: unknown[] = [];
    listen('queue-add', (p) => adds.push(p));
    listen('live-selected', (p) => lives.push(p));
    expect(adds).toEqual([
      { items: [{ slug: 'un' }] },
      { items: [{ slug: 'deux', start: 90 }], label: 'Résidence' },
      { items: [{ slug: 'trois' }] },
    ]);
    expect(lives).toEqual([{}]);
    const later: unknown[] = [];
    listen('queue-add', (p) => later.push(p));
    expect(later).toEqual([]);
  });

  it('keeps a held replay when queue-add requests follow it', () => {
    emit('replay-selected', replay);
    emit('queue-add', { items: [{ slug: 'un' }] });
    const replays: unknown[] = [];
    listen('replay-selected', (p) => replays.push(p));
    expect(replays).toEqual([replay]);
  });

  it('holds at most QUEUE_MAX queue-add requests, the first ones', () => {
    for (let i = 0; i < QUEUE_MAX + 5; i++) emit('queue-add', { items: [{ slug: `e-${i}` }] });
    const slugs: string[] = [];
    listen('queue-add', (p) => slugs.push(p.items[0]?.slug ?? ''));
    expect(slugs).toHaveLength(QUEUE_MAX);
    expect(slugs[0]).toBe('e-0');
    expect(slugs.at(-1)).toBe(`e-${QUEUE_MAX - 1}`);
  });

  it('does not hold a queue-add that a subscriber heard', () => {
    const first: unknown[] = [];
    const off = listen('queue-add', (p) => first.push(p));
    emit('queue-add', { items: [{ slug: 'un' }] });
    off();
    const seen: unknown[] = [];
    listen('queue-add', (p) => seen.push(p));
    expect(first).toHaveLength(1);
    expect(seen).toEqual([]);
  });

  it('replays the queue’s last state to a late subscriber', () => {
    emit('queue-state', { items: [{ slug: 'un', start: 12 }] });
    const seen: unknown[] = [];
    listen('queue-state', (p) => seen.push(p));
    expect(seen).toEqual([{ items: [{ slug: 'un', start: 12 }] }]);
  });

  it('replays feed-loaded to a late subscriber, and emits it only once', () => {
    expect(lastPayload('feed-loaded')).toBeUndefined();
    expect(emit('feed-loaded', {})).toBe(true);
    expect(emit('feed-loaded', {})).toBe(false);
    const seen: unknown[] = [];
    listen('feed-loaded', (p) => seen.push(p));
    expect(seen).toEqual([{}]);
    expect(lastPayload('feed-loaded')).toEqual({});
  });

  it('is observable and drivable from plain DOM events', () => {
    const fromDom: unknown[] = [];
    window.addEventListener(domEventName('replay-selected'), (e) => {
      fromDom.push((e as CustomEvent).detail);
    });
    emit('replay-selected', replay);
    expect(fromDom).toEqual([replay]);

    const fromBus: string[] = [];
    listen('live-selected', () => fromBus.push('live'));
    window.dispatchEvent(new CustomEvent('collectif:live-selected', { detail: {} }));
    expect(fromBus).toEqual(['live']);
  });
});
