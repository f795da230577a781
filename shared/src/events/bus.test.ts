import { domEventName } from './contract';
import { emit, lastPayload, on, resetEvents } from './bus';

const replay = {
  url: 'https://example.org/a.mp3',
  duration: 60,
  title: 'Artiste',
  description: 'Émission',
  cover: '/assets/images/default-cover.webp',
};

afterEach(() => {
  resetEvents();
});

describe('event bus', () => {
  it('delivers a payload to a subscriber and stops after unsubscribe', () => {
    const seen: string[] = [];
    const off = on('replay-selected', (p) => seen.push(p.title));
    emit('replay-selected', replay);
    off();
    emit('replay-selected', { ...replay, title: 'Autre' });
    expect(seen).toEqual(['Artiste']);
  });

  it('does not replay replay-selected to a late subscriber', () => {
    emit('replay-selected', replay);
    const seen: unknown[] = [];
    on('replay-selected', (p) => seen.push(p));
    expect(seen).toEqual([]);
  });

  it('replays feed-loaded to a late subscriber, and emits it only once', () => {
    expect(lastPayload('feed-loaded')).toBeUndefined();
    expect(emit('feed-loaded', {})).toBe(true);
    expect(emit('feed-loaded', {})).toBe(false);
    const seen: unknown[] = [];
    on('feed-loaded', (p) => seen.push(p));
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
    on('live-selected', () => fromBus.push('live'));
    window.dispatchEvent(new CustomEvent('collectif:live-selected', { detail: {} }));
    expect(fromBus).toEqual(['live']);
  });
});
