import { PREVENIR_KEY, pushChoices, readStoredChoices, setPushChoices } from './prevenir';

// « Me prévenir »'s choice kept in the browser (docs/follow.md, « Me prévenir »): checked when read,
// like the list of residences followed.

beforeEach(() => {
  window.localStorage.clear();
});

describe('the kept choice', () => {
  it('is written and read back, told to the page', () => {
    const told = jest.fn();
    window.addEventListener('collectif:prevenir-changed', told);
    expect(setPushChoices([{ id: 'axonberg', live: true, replay: false }])).toBe(true);
    expect(window.localStorage.getItem(PREVENIR_KEY)).toBe('[{"id":"axonberg","live":true,"replay":false}]');
    expect(pushChoices()).toEqual([{ id: 'axonberg', live: true, replay: false }]);
    expect(told).toHaveBeenCalledTimes(1);
    setPushChoices([]);
    expect(window.localStorage.getItem(PREVENIR_KEY)).toBeNull();
    window.removeEventListener('collectif:prevenir-changed', told);
  });

  it('keeps residence ids with two booleans, one of them true, each id once', () => {
    const stored = [
      { id: 'axonberg', live: true, replay: true },
      { id: 'axonberg', live: false, replay: true },
      { id: '<script>', live: true, replay: true },
      { id: 'la-brume', live: false, replay: false },
      { id: 'la-brume', live: 'oui', replay: true },
      { id: 'a'.repeat(61), live: true, replay: true },
      ['capitole-sound', true, true],
      null,
      { id: 'capitole-sound', live: false, replay: true, extra: 'ignoré' },
    ];
    expect(readStoredChoices(JSON.stringify(stored))).toEqual([
      { id: 'axonberg', live: true, replay: true },
      { id: 'capitole-sound', live: false, replay: true },
    ]);
  });

  it('is no choice at all when not a JSON array, or longer than 50 entries can be', () => {
    expect(readStoredChoices('{"id":"axonberg","live":true,"replay":true}')).toEqual([]);
    expect(readStoredChoices('pas du JSON')).toEqual([]);
    expect(readStoredChoices(null)).toEqual([]);
    const many = Array.from({ length: 60 }, (_, at) => ({ id: `r${String(at)}`, live: true, replay: true }));
    expect(readStoredChoices(JSON.stringify(many))).toHaveLength(50);
    expect(readStoredChoices(`[${' '.repeat(10_000)}]`)).toEqual([]);
  });

  it('says so when the browser refuses to keep it', () => {
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('plein', 'QuotaExceededError');
    });
    expect(setPushChoices([{ id: 'axonberg', live: true, replay: true }])).toBe(false);
    setItem.mockRestore();
  });
});
