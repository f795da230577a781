import { act, renderHook } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { SLUG } from '../schemas/content.mjs';
import {
  FOLLOW_KEY,
  FOLLOW_MAX,
  follow,
  followAll,
  followSearch,
  followedIds,
  isResidenceId,
  readFollowParam,
  readStoredIds,
  setFollowedIds,
  unfollow,
  useFollowedIds,
  useFollowStored,
} from '.';

// Following residences without an account (docs/follow.md): a checked, bounded list in this
// browser's local storage.

beforeEach(() => {
  window.localStorage.clear();
});

describe('the ids', () => {
  it('are the content schema’s residence ids, 60 characters at most', () => {
    for (const id of ['axonberg', '130E0A', 'kalibre-mona-vex', 'a'.repeat(60)]) {
      expect([id, isResidenceId(id), SLUG.test(id)]).toEqual([id, true, true]);
    }
    for (const id of ['', 'a'.repeat(61), '-a', 'a--b', 'a b', '<b>x</b>', '../x', 'é', 42, null]) {
      expect([id, isResidenceId(id)]).toEqual([id, false]);
    }
  });
});

describe('the stored list', () => {
  it('is read back as written, in the order followed', () => {
    expect(follow('axonberg')).toBe('done');
    expect(follow('la-brume')).toBe('done');
    expect(follow('axonberg')).toBe('done');
    expect(followedIds()).toEqual(['axonberg', 'la-brume']);
    expect(JSON.parse(window.localStorage.getItem(FOLLOW_KEY) ?? '')).toEqual(['axonberg', 'la-brume']);
    expect(unfollow('axonberg')).toBe('done');
    expect(followedIds()).toEqual(['la-brume']);
    expect(unfollow('la-brume')).toBe('done');
    // Nothing followed, nothing kept.
    expect(window.localStorage.getItem(FOLLOW_KEY)).toBeNull();
  });

  it('refuses or trims a tampered value', () => {
    expect(readStoredIds(null)).toEqual([]);
    expect(readStoredIds('pas du JSON')).toEqual([]);
    expect(readStoredIds('{"ids":["axonberg"]}')).toEqual([]);
    expect(readStoredIds('"axonberg"')).toEqual([]);
    expect(
      readStoredIds(JSON.stringify(['axonberg', '<img src=x onerror=alert(1)>', 7, 'axonberg', 'la-brume'])),
    ).toEqual(['axonberg', 'la-brume']);
    // More than a visitor may follow: the first FOLLOW_MAX.
    const sixty = Array.from({ length: 60 }, (_, index) => `r${String(index)}`);
    expect(readStoredIds(JSON.stringify(sixty))).toEqual(sixty.slice(0, FOLLOW_MAX));
    // Longer than a full list can be: not read at all.
    const tenThousand = Array.from({ length: 10_000 }, (_, index) => `r${String(index)}`);
    expect(readStoredIds(JSON.stringify(tenThousand))).toEqual([]);

    window.localStorage.setItem(FOLLOW_KEY, JSON.stringify(['axonberg', '"><script>', 'la-brume']));
    expect(followedIds()).toEqual(['axonberg', 'la-brume']);
  });

  it('takes no more than FOLLOW_MAX, and says so', () => {
    const full = Array.from({ length: FOLLOW_MAX }, (_, index) => `r${String(index)}`);
    expect(setFollowedIds(full)).toBe('done');
    expect(follow('axonberg')).toBe('full');
    expect(followAll(['axonberg'])).toBe('full');
    expect(followedIds()).toEqual(full);
    // Those already followed are no addition.
    expect(followAll(['r1', 'r2'])).toBe('done');
    // A list that would pass the cap is refused whole.
    setFollowedIds(full.slice(0, 45));
    expect(followAll(Array.from({ length: 10 }, (_, index) => `n${String(index)}`))).toBe('full');
    expect(followedIds()).toEqual(full.slice(0, 45));
    expect(followAll(['n1', 'n2', 'n3', 'n4', 'n5'])).toBe('done');
    expect(followedIds()).toHaveLength(50);
  });

  it('adds an offered list after the residences already followed, each once', () => {
    follow('la-brume');
    expect(followAll(['axonberg', 'la-brume', 'verglas'])).toBe('done');
    expect(followedIds()).toEqual(['la-brume', 'axonberg', 'verglas']);
  });

  it('says when the browser refuses to keep it', () => {
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('Quota dépassé', 'QuotaExceededError');
    });
    try {
      expect(follow('axonberg')).toBe('refused');
      expect(followedIds()).toEqual([]);
    } finally {
      setItem.mockRestore();
    }
  });
});

describe('a shared link’s list (?suivre=)', () => {
  it('keeps well-formed ids, each once, and the first FOLLOW_MAX', () => {
    expect(readFollowParam(null)).toEqual([]);
    expect(readFollowParam('axonberg, la-brume,,axonberg')).toEqual(['axonberg', 'la-brume']);
    expect(readFollowParam('axonberg,<script>alert(1)</script>,la-brume')).toEqual(['axonberg', 'la-brume']);
    const tenThousand = Array.from({ length: 10_000 }, (_, index) => `r${String(index)}`).join(',');
    expect(readFollowParam(tenThousand)).toEqual(Array.from({ length: FOLLOW_MAX }, (_, index) => `r${String(index)}`));
    expect(readFollowParam(`${'x'.repeat(1_000_000)},axonberg`)).toEqual([]);
    expect(followSearch(['axonberg', 'la-brume', 'axonberg'])).toEqual({ suivre: 'axonberg,la-brume' });
  });
});

describe('useFollowedIds', () => {
  it('is empty on the server, then follows this page’s changes and another tab’s', () => {
    follow('axonberg');
    function Probe() {
      return <p>{useFollowedIds().join(',') || 'aucune'}</p>;
    }
    // The server's HTML is the same for every visitor.
    expect(renderToString(<Probe />)).toBe('<p>aucune</p>');

    const { result } = renderHook(() => useFollowedIds());
    expect(result.current).toEqual(['axonberg']);
    const before = result.current;
    act(() => {
      follow('la-brume');
    });
    expect(result.current).toEqual(['axonberg', 'la-brume']);
    expect(result.current).not.toBe(before);
    // Another tab wrote it: the browser says so with a storage event.
    act(() => {
      window.localStorage.setItem(FOLLOW_KEY, JSON.stringify(['verglas']));
      window.dispatchEvent(new StorageEvent('storage', { key: FOLLOW_KEY }));
    });
    expect(result.current).toEqual(['verglas']);
  });

  it('useFollowStored says whether a list is kept at all, without reading it', () => {
    const { result } = renderHook(() => useFollowStored());
    expect(result.current).toBe(false);
    act(() => {
      follow('axonberg');
    });
    expect(result.current).toBe(true);
    act(() => {
      unfollow('axonberg');
    });
    expect(result.current).toBe(false);
  });
});
