import { yieldToMain } from './yield';

const carrier = globalThis as { scheduler?: { yield?: () => Promise<void> } };

afterEach(() => {
  delete carrier.scheduler;
});

test('without scheduler.yield, the start resumes in a new task, after the tasks already queued', async () => {
  const order: string[] = [];
  setTimeout(() => order.push('a task queued before'), 0);
  void Promise.resolve().then(() => order.push('a microtask'));
  await yieldToMain();
  order.push('the start, resumed');
  expect(order).toEqual(['a microtask', 'a task queued before', 'the start, resumed']);
});

test('where the browser has scheduler.yield, the start yields through it', async () => {
  const order: string[] = [];
  carrier.scheduler = {
    yield: () => {
      order.push('scheduler.yield');
      return Promise.resolve();
    },
  };
  await yieldToMain();
  order.push('the start, resumed');
  expect(order).toEqual(['scheduler.yield', 'the start, resumed']);
});
