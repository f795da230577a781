import { runTask, type ApiAnswer, type RenderHost } from './render-worker';
import type { FromRenderer, RendererTask, ToRenderer } from './renderers';

/**
 * The entry of a renderer process (docs/rendering.md, « Renderers »): started by renderers.ts,
 * sandboxed (no secret in its environment, Node's permission model: it reads the parts' folders and
 * its own code, writes nothing, starts nothing), it renders one task at a time, told and answered
 * over its IPC channel only. What a part's code does here reaches no secret: there is none.
 */

const send = (message: FromRenderer): void => {
  process.send?.(message);
};

/** The page's /api requests waiting for the server's answer, by request number. */
const waiting = new Map<number, (answer: ApiAnswer) => void>();
let requests = 0;

function hostOf(id: number): RenderHost {
  return {
    started: () => {
      send({ type: 'event', id, event: 'started', args: [] });
    },
    log: (level, message) => {
      send({ type: 'event', id, event: 'log', args: [level, message] });
    },
    reading: (part, version, where) => {
      send({ type: 'event', id, event: 'reading', args: [part, version, where] });
    },
    read: (part, version, where, problem) => {
      send({ type: 'event', id, event: 'read', args: [part, version, where, problem] });
    },
    api: (url) =>
      new Promise<ApiAnswer>((resolve) => {
        requests += 1;
        waiting.set(requests, resolve);
        send({ type: 'api', id, request: requests, url });
      }),
  };
}

process.on('message', (message: ToRenderer) => {
  if (message.type === 'api') {
    waiting.get(message.request)?.(message.answer);
    waiting.delete(message.request);
    return;
  }
  const { id, task } = message;
  (runTask as (task: RendererTask, own: RenderHost) => Promise<unknown>)(task, hostOf(id)).then(
    (value) => {
      send({ type: 'done', id, value });
    },
    (error: unknown) => {
      const text = (error as { message?: unknown } | null)?.message;
      send({ type: 'failed', id, message: typeof text === 'string' ? text : String(error) });
    },
  );
});

// The server gone (stopped, or crashed), its renderers go too.
process.on('disconnect', () => {
  process.exit(0);
});

// Its code loaded (React, the shared package): the server may give it pages, whose deadline counts
// from a ready renderer.
send({ type: 'ready' });
