import { SHOULD_AUTOBATCH } from '@reduxjs/toolkit';
import { makeStore } from '@collectif/shared';

// When the store tells its subscribers of the API's bookkeeping (docs/first-screen.md, « Work after
// the paint »): in a task of its own, not inside the next frame.

/** A store past its first action (the API's middleware says it is there then, with one of its own). */
function storeInUse() {
  const store = makeStore();
  store.dispatch({ type: 'first' });
  return store;
}

describe('the store’s subscribers', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('are told of the API’s auto-batched actions in the next task, before any frame', () => {
    const store = storeInUse();
    const told = jest.fn();
    store.subscribe(told);
    store.dispatch({ type: 'bookkeeping', meta: { [SHOULD_AUTOBATCH]: true } });
    // Not in the task that dispatched it: a few of them make one notification.
    store.dispatch({ type: 'bookkeeping', meta: { [SHOULD_AUTOBATCH]: true } });
    expect(told).not.toHaveBeenCalled();
    jest.advanceTimersByTime(0);
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('are told at once of any other action', () => {
    const store = storeInUse();
    const told = jest.fn();
    store.subscribe(told);
    store.dispatch({ type: 'change' });
    expect(told).toHaveBeenCalledTimes(1);
  });
});
