import type { PartName } from '@collectif/shared';
import { answerApiSafely, answerFile } from './host-answers';
import type { Permits } from './permits';
import { readTrialOutcome, type TrialOutcome } from './protocol';
import { startRenderers, type Renderers } from './renderers';
import type { SandboxMode, SandboxOptions } from './sandbox';
import type { ApiAnswer, RenderHost, TrialTask } from './tasks';

/**
 * New server containers are tried by a renderer of their own before one that serves visitors
 * evaluates them (docs/deploy.md, « The trial »): one at a time, with a deadline and a heap limit,
 * each in a fresh sandboxed process stopped once it has answered (no trial sees what one before it
 * left, and no memory is held between deploys).
 */

/** How long the trial's renderer may take to start (it loads its code first). */
const TRIAL_START_MS = 60_000;

export interface TrialsOptions {
  mode: SandboxMode;
  sandbox: Omit<SandboxOptions, 'heapMb'>;
  heapMb: number;
  deadlineMs: number;
  permits: Permits;
  answerApi: (url: string) => Promise<ApiAnswer>;
  log: { warn: (message: string) => void };
}

const messageOf = (error: unknown): string => {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
};

export function createTrials({ mode, sandbox, heapMb, deadlineMs, permits, answerApi, log }: TrialsOptions) {
  let queue: Promise<unknown> = Promise.resolve();
  /** The trial's process while one runs (stopped with the server). */
  let renderer: Renderers | null = null;
  let trying: PartName | null = null;
  /** The trial in progress or done of a part's container, by `part@version` asked. */
  const outcomes = new Map<string, Promise<TrialOutcome>>();

  /** One trial in a fresh renderer: the deadline counts from its start there, not from its process's. */
  async function alone(task: TrialTask): Promise<TrialOutcome> {
    const own = startRenderers({ ...sandbox, heapMb, count: 1, mode, lane: null, warn: () => undefined });
    renderer = own;
    trying = task.trial.part;
    const abort = new AbortController();
    let timer = setTimeout(() => {
      abort.abort(new Error('start'));
    }, TRIAL_START_MS);
    const host: RenderHost = {
      started() {
        clearTimeout(timer);
        timer = setTimeout(() => {
          abort.abort(new Error('deadline'));
        }, deadlineMs);
      },
      api: answerApiSafely(answerApi),
      file: (url, etag) => answerFile(task.remotes, url, etag),
      log(level, message) {
        if (level === 'warn') log.warn(message);
      },
      reading: () => undefined,
      read: () => undefined,
    };
    try {
      const outcome = readTrialOutcome(await own.run(task, host, abort.signal));
      if (outcome.ok) permits.trust(task.trial.part, outcome.version);
      return outcome;
    } catch (error) {
      // The renderer of an aborted trial is killed, one past its heap limit stops.
      const cause = messageOf(abort.signal.reason);
      const reason = !abort.signal.aborted
        ? `son essai s'arrête : ${messageOf(error)}`
        : cause === 'start'
          ? `le processus d'essai n'a pas démarré en ${String(TRIAL_START_MS / 1000)} s`
          : `son essai ne finit pas en ${String(deadlineMs / 1000)} s (une boucle sans fin ?)`;
      return { ok: false, reason };
    } finally {
      trying = null;
      clearTimeout(timer);
      renderer = null;
      void own.destroy();
    }
  }

  /** Tries a part's container in a folder (a deploy's version before its switch), after the trials before it. */
  function trial(task: TrialTask): Promise<TrialOutcome> {
    const outcome = queue.then(() => alone(task));
    queue = outcome.catch(() => undefined);
    return outcome;
  }

  return {
    trial,
    /**
     * A part's container seen in a version not tried yet (copied by hand, or switched by another
     * instance): tried once in the background; its pages render in the browser meanwhile. The
     * outcome of that version's trial, shared by whoever asks.
     */
    tryOnce: (part: PartName, version: string, task: () => TrialTask): Promise<TrialOutcome> => {
      const key = `${part}@${version}`;
      let pending = outcomes.get(key);
      if (pending === undefined) {
        pending = trial(task()).then((outcome) => {
          if (outcome.ok && outcome.version !== version) outcomes.delete(key);
          if (!outcome.ok) {
            log.warn(`Conteneur serveur de « ${part} » refusé à l'essai : ${outcome.reason}`);
            permits.judged(part, version, 'ce serveur', outcome.reason);
          }
          return outcome;
        });
        outcomes.set(key, pending);
      }
      return pending;
    },
    /** The part on trial now, if any. */
    trying: (): PartName | null => trying,
    close: () => renderer?.destroy(),
  };
}
