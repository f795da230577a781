import { randomUUID } from 'node:crypto';
import { Pool, type Dispatcher } from 'undici';
import {
  AnswerRefused,
  MAX_ANSWER_BYTES,
  MAX_MESSAGE_BYTES,
  readTaskAnswer,
  type RenderHost,
  type RendererTask,
} from './protocol';
import { rendererEntry } from './renderer-build';
import type { TaskState } from './renderer-host';
import { RendererProcess, renderers, type RendererSpec } from './renderer-process';

// The channel to the renderers (docs/rendering.md, « The channel »): an undici Pool whose connections
// are renderer processes, and a task sent on it with its deadlines, its answer read as it comes.

/** A page that never reached a renderer (none free in time). */
export class NotStarted extends Error {}

/** A lane's or a trial's renderers: an undici Pool whose connections are renderer processes. */
export function rendererPool(spec: RendererSpec, connections: number, idleMs: number): Pool {
  return new Pool('http://renderer.invalid', {
    connections,
    pipelining: 1,
    maxResponseSize: MAX_ANSWER_BYTES,
    maxHeaderSize: MAX_MESSAGE_BYTES,
    // The deadlines are the page's own (`askRenderer`); these only keep a connection from waiting forever.
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: idleMs,
    keepAliveMaxTimeout: idleMs,
    connect: (_options, callback) => {
      rendererEntry()
        .then((code) => {
          const renderer = new RendererProcess(code, spec);
          spec.started();
          return renderer.ready;
        })
        .then(
          (socket) => {
            callback(null, socket);
          },
          (error: unknown) => {
            callback(error instanceof Error ? error : new Error(String(error)), null);
          },
        );
    },
  });
}

/**
 * Sends a task to a pool, and waits for its answer: within `queueMs` to start, then `deadlineMs` from
 * its start. The answer is read by `check` (protocol.ts); one it refuses, like one out of the
 * protocol or from a renderer being stopped, stops the renderer that gave it (AnswerRefused).
 */
export function askRenderer<T>(
  pool: Dispatcher,
  tasks: Map<string, TaskState>,
  task: RendererTask,
  host: RenderHost,
  { queueMs, deadlineMs }: { queueMs: number; deadlineMs: number },
  check: (value: unknown) => T,
): Promise<T> {
  const token = randomUUID();
  const state: TaskState = { host, requests: 0, renderer: null };
  tasks.set(token, state);
  return new Promise<T>((resolve, reject) => {
    let started = false;
    let settled = false;
    let status = 0;
    const chunks: Buffer[] = [];
    const end = () => {
      settled = true;
      clearTimeout(timer);
      tasks.delete(token);
    };
    const fail = (error: Error) => {
      if (settled) return;
      end();
      reject(Object.assign(error, { started }));
    };
    let timer = setTimeout(() => {
      fail(new NotStarted(`aucun processus de rendu libre en ${String(queueMs)} ms`));
    }, queueMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        // Given up while it waited: never sent.
        if (settled) {
          controller.abort(new NotStarted('abandonnée'));
          return;
        }
        started = true;
        clearTimeout(timer);
        timer = setTimeout(() => {
          // Aborted in flight, undici closes the connection: its renderer is killed (`RendererProcess`).
          state.renderer?.stop(`délai de rendu dépassé (${String(deadlineMs)} ms)`);
          controller.abort(new Error(`délai de rendu dépassé (${String(deadlineMs)} ms)`));
          fail(new Error(`délai de rendu dépassé (${String(deadlineMs)} ms)`));
        }, deadlineMs);
      },
      onResponseStart(controller, statusCode, headers) {
        status = statusCode;
        const renderer = renderers.get(String(headers['x-renderer']));
        state.renderer ??= renderer ?? null;
        // An answer that names no renderer of this server, or another one's: out of the protocol.
        if (renderer === undefined || state.renderer !== renderer)
          controller.abort(new AnswerRefused('réponse sans son processus'));
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (settled) return;
        end();
        try {
          if (state.renderer?.stopping === true)
            throw new AnswerRefused('processus de rendu arrêté pendant sa réponse');
          if (status !== 200) throw new AnswerRefused(`réponse du rendu en statut ${String(status)}`);
          const answer = readTaskAnswer(Buffer.concat(chunks).toString('utf8'));
          if (answer.ok) resolve(check(answer.value));
          else reject(Object.assign(new Error(answer.message), { started }));
        } catch (error) {
          // A renderer that answers out of the protocol is not asked again.
          state.renderer?.stop(error instanceof Error ? error.message : String(error));
          reject(Object.assign(error as Error, { started }));
        }
      },
      onResponseError(_controller, error) {
        fail(error);
      },
    };
    pool.dispatch(
      {
        path: '/',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, task }),
      },
      handler,
    );
  });
}
