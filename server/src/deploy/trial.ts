import type { PageRef, PartName } from '@collectif/shared';
import type { RenderSettings, TrialOutcome, TrialTask } from '../site/render/protocol';

export type { TrialOutcome, TrialTask };

/**
 * The trial (docs/deploy.md, « The trial »): a part's new server container is tried by a renderer of
 * its own, which serves no visitor, before any renderer that does loads it. This module asks for it;
 * what the trial's renderer does is in site/render/container-trial.ts (tryContainer), and the deploy's other checks are
 * beside this one (checks.ts).
 */

/** What runs a trial: the render pool's `trial` (one at a time, in a fresh sandboxed renderer). */
export interface TrialRunner {
  trial(task: TrialTask): Promise<TrialOutcome>;
}

/** The trial of a part's container in a folder, with the page table its version would make. */
export function trialTask(
  settings: Omit<RenderSettings, 'pages'>,
  part: PartName,
  dir: string,
  pages: readonly PageRef[],
): TrialTask {
  return { ...settings, trial: { part, dir }, pages };
}

/** Tries a part's new version in `dir` before it goes live: its outcome, a refusal saying why. */
export function tryVersion(
  pool: TrialRunner,
  settings: Omit<RenderSettings, 'pages'>,
  part: PartName,
  dir: string,
  pages: readonly PageRef[],
): Promise<TrialOutcome> {
  return pool.trial(trialTask(settings, part, dir, pages));
}
