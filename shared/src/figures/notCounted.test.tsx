import { act, renderHook } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { chooseNotCounted, NOT_COUNTED, NOT_COUNTED_KEY, notCounted, useNotCounted } from './notCounted';

// « Ne pas être compté » kept on the device (docs/figures.md, « In the browser »).

beforeEach(() => {
  window.localStorage.clear();
});

it('is no choice until the visitor makes one, and is read back as chosen', () => {
  expect(notCounted()).toBe(false);
  expect(chooseNotCounted(true)).toBe(true);
  expect(window.localStorage.getItem(NOT_COUNTED_KEY)).toBe(NOT_COUNTED);
  expect(notCounted()).toBe(true);
  expect(chooseNotCounted(false)).toBe(true);
  expect(window.localStorage.getItem(NOT_COUNTED_KEY)).toBeNull();
  expect(notCounted()).toBe(false);
});

it('reads any other stored value as no choice', () => {
  for (const hostile of ['true', 'OUI', ' oui', '1', '{"oui":true}', 'oui'.repeat(1000), '']) {
    window.localStorage.setItem(NOT_COUNTED_KEY, hostile);
    expect([hostile, notCounted()]).toEqual([hostile, false]);
  }
});

it('says when the device refuses to keep the choice', () => {
  const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('quota', 'QuotaExceededError');
  });
  try {
    expect(chooseNotCounted(true)).toBe(false);
    expect(notCounted()).toBe(false);
  } finally {
    setItem.mockRestore();
  }
});

it('tells a component when it changes, and nothing on the server', () => {
  window.localStorage.setItem(NOT_COUNTED_KEY, NOT_COUNTED);
  function Shown() {
    return <p>{useNotCounted() ? 'non compté' : 'compté'}</p>;
  }
  expect(renderToString(<Shown />)).toContain('compté');
  expect(renderToString(<Shown />)).not.toContain('non compté');
  const { result } = renderHook(() => useNotCounted());
  expect(result.current).toBe(true);
  act(() => {
    chooseNotCounted(false);
  });
  expect(result.current).toBe(false);
  act(() => {
    window.localStorage.setItem(NOT_COUNTED_KEY, NOT_COUNTED);
    window.dispatchEvent(new StorageEvent('storage', { key: NOT_COUNTED_KEY }));
  });
  expect(result.current).toBe(true);
});
