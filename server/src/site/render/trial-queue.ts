import { PARTS, type PartName } from '@collectif/shared';
import type { Permits } from './permits';
import { readTrialOutcome, type HostAnswer, type RenderHost, type TrialOutcome, type TrialTask } from './protocol';
import { askRenderer, NotStarted, rendererPool } from './renderer-channel';
import type { TaskState } from './renderer-host';
import { START_MS, type RendererSpec } from './renderer-process';
import { answerFile, statusOnly } from './renderer-requests';

// The trials of new server containers (docs/deploy.md, « The trial »), one after the other.

export interface TrialsOptions {
  /** A trial's /api GET, answered as to an anonymous visitor (`visitorApi`). */
  answerApi: (url: string, lane: PartName | null) => Promise<HostAnswer>;
  distDirs: Readonly<Record<PartName, string>>;
  log: { warn: (message: string) => void };
  tasks: Map<string, TaskState>;
  permits: Permits;
  /** What starts the trial's renderer (the pool's). */
  spec: (lane: PartName | null, heapMb: number, readable: () => string[]) => RendererSpec;
  trialDeadlineMs: number;
  trialHeapMb: number;
  idleMs: number;
}

export function createTrialQueue(options: TrialsOptions) {
  const { answerApi, distDirs, log, tasks, permits, spec, trialDeadlineMs, trialHeapMb, idleMs } = options;
  let trying: PartName | null = null;
  let trialQueue: Promise<unknown> = Promise.resolve();
  const outcomes = new Map<string, Promise<TrialOutcome>>();

  /**
   * A trial (docs/deploy.md, « The trial »): one at a time, each in a fresh sandboxed renderer that
   * serves no visitor, stopped once it has answered (no trial sees what one before it left). A
   * remote's trial reads its new version's folder and the shell's and player's live versions; the
   * shell's and the player's render the home page, so they read the live parts too.
   */
  async function alone(task: TrialTask): Promise<TrialOutcome> {
    const { part, dir } = task.trial;
    const others: PartName[] =
      part === 'shell' || part === 'player' ? PARTS.map(({ name }) => name) : ['shell', 'player'];
    const readable = () => [dir, ...others.filter((name) => name !== part).map((name) => distDirs[name])];
    const pool = rendererPool(spec(null, trialHeapMb, readable), 1, idleMs);
    trying = part;
    const host: RenderHost = {
      api: (url) => answerApi(url, null).catch(() => statusOnly(502)),
      file: (url, etag) => answerFile(task.remotes, url, etag),
      log(level, message) {
        if (level === 'warn') log.warn(message);
      },
      reading: () => undefined,
      read: () => undefined,
    };
    try {
      const outcome = await askRenderer(
        pool,
        tasks,
        task,
        host,
        { queueMs: START_MS, deadlineMs: trialDeadlineMs },
        readTrialOutcome,
      );
      if (outcome.ok) permits.trust(part, outcome.version);
      return outcome;
    } catch (error) {
      const message = (error as { message?: unknown } | null)?.message;
      const said = typeof message === 'string' ? message : String(error);
      const reason =
        error instanceof NotStarted
          ? `le processus d'essai n'a pas démarré en ${String(START_MS / 1000)} s`
          : said.startsWith('délai de rendu dépassé')
            ? `son essai ne finit pas en ${String(trialDeadlineMs / 1000)} s (une boucle sans fin ?)`
            : `son essai s'arrête : ${said}`;
      return { ok: false, reason };
    } finally {
      trying = null;
      await pool.destroy().catch(() => undefined);
    }
  }

  /** Tries a part's container in a folder (a deploy's version before its switch), after the trials before it. */
  function trial(task: TrialTask): Promise<TrialOutcome> {
    const outcome = trialQueue.then(() => alone(task));
    trialQueue = outcome.catch(() => undefined);
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
    /** The part whose new server container is on trial now, if any. */
    trying: (): PartName | null => trying,
  };
}
