// The shell's entry evaluates its modules one step per task (shell/src/index.ts; docs/first-screen.md,
// « Work after the paint »): between two steps the browser may paint or answer a tap.

const evaluated: string[] = [];

jest.mock('react-dom/client', () => {
  evaluated.push('react-dom');
  return {};
});
jest.mock('react-router-dom', () => {
  evaluated.push('react-router');
  return {};
});
jest.mock('@reduxjs/toolkit/query/react', () => {
  evaluated.push('redux');
  return {};
});
jest.mock('@collectif/shared', () => {
  evaluated.push('shared');
  return {};
});
jest.mock('./bootstrap', () => {
  evaluated.push('app');
  return {};
});

describe('the shell’s entry', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('evaluates React’s renderer, the router, the Redux libraries, the shared library and the app, each in a task of its own', async () => {
    // The entry exports nothing: named by a variable, as a script rather than a module.
    const entry = './index';
    await import(entry);
    // An eager import is evaluated in the microtasks of the task that asks for it.
    const microtasks = async () => {
      for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
    };
    await microtasks();
    const steps: string[][] = [[...evaluated]];
    for (let task = 0; task < 4; task += 1) {
      // The next task, and its microtasks.
      jest.advanceTimersToNextTimer();
      await microtasks();
      steps.push([...evaluated]);
    }
    expect(steps[0]).toEqual(['react-dom']);
    expect(steps[1]).toEqual(['react-dom', 'react-router']);
    expect(steps[2]).toEqual(['react-dom', 'react-router', 'redux']);
    expect(steps[3]).toEqual(['react-dom', 'react-router', 'redux', 'shared']);
    expect(steps[4]).toEqual(['react-dom', 'react-router', 'redux', 'shared', 'app']);
  });
});
