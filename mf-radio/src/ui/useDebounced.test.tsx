import { act, renderHook } from '@testing-library/react';
import { useDebounced } from './useDebounced';

describe('useDebounced', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs once the calls pause, with the last one’s arguments', () => {
    const run = jest.fn();
    const { result } = renderHook(() => useDebounced(run, 300));
    act(() => {
      result.current.later('d');
      jest.advanceTimersByTime(200);
      result.current.later('du');
      jest.advanceTimersByTime(200);
      result.current.later('dub');
    });
    expect(run).not.toHaveBeenCalled();
    act(() => {
      jest.advanceTimersByTime(300);
    });
    expect(run.mock.calls).toEqual([['dub']]);
  });

  it('runs at once on `now`, and drops what was waiting', () => {
    const run = jest.fn();
    const { result } = renderHook(() => useDebounced(run, 300));
    act(() => {
      result.current.later('du');
      result.current.now('dub');
      jest.advanceTimersByTime(1000);
    });
    expect(run.mock.calls).toEqual([['dub']]);
  });

  it('drops what waits when the component goes, and calls the latest function given', () => {
    const first = jest.fn();
    const second = jest.fn();
    const { result, rerender, unmount } = renderHook(({ run }) => useDebounced(run, 300), {
      initialProps: { run: first },
    });
    act(() => {
      result.current.later('a');
    });
    rerender({ run: second });
    act(() => {
      jest.advanceTimersByTime(300);
    });
    expect(first).not.toHaveBeenCalled();
    expect(second.mock.calls).toEqual([['a']]);
    act(() => {
      result.current.later('b');
    });
    unmount();
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(second.mock.calls).toEqual([['a']]);
  });
});
