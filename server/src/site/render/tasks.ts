import type { PageMatch, PageRef, PartName, RemotesConfig } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import type { HostAnswer } from './protocol';

/**
 * What the server gives a renderer to do (docs/rendering.md, « Renderers »): each task carries all
 * it needs, the versions of the parts' code it may run included, so that a renderer keeps no state
 * of its own between tasks but the containers it has loaded.
 */

/** What any task renders with: the site's settings, its table of pages, where the parts are. */
export interface RenderSettings {
  origin: string;
  radio: RadioSettings;
  pages: readonly PageRef[];
  remotes: RemotesConfig;
  distDirs: Record<PartName, string>;
  dataDeadlineMs: number;
  renderDeadlineMs: number;
}

/**
 * Which versions of the parts' server containers a task may evaluate (permits.ts): a snapshot,
 * taken when the task leaves for its renderer.
 */
export interface VersionsSnapshot {
  /** Server containers whose loading never ended, as `part@version`: not loaded again. */
  disabled: readonly string[];
  /**
   * The versions that may be evaluated (`part@version`): tried, or there when the server started
   * (docs/deploy.md, « The trial »); null: any (no renderer process). A part whose container is in
   * another version renders in the browser.
   */
  allowed: readonly string[] | null;
}

/** A page to render. */
export interface RenderTask extends RenderSettings, VersionsSnapshot {
  pathname: string;
  search: string;
  match: PageMatch | null;
}

/**
 * A part's new server container tried before it is used (docs/deploy.md, « The trial »), in a
 * renderer of its own that serves no visitor: loaded, then each of its pages rendered once with the
 * other parts' containers in use, from the page table it would make.
 */
export interface TrialTask extends RenderSettings {
  trial: { part: PartName; dir: string };
  /** The site's page table with the new version's pages in place of the part's. */
  pages: readonly PageRef[];
}

/** A task that only makes the renderer ready (its modules loaded), before the first page's deadline runs. */
export interface WarmUp {
  warmUp: true;
}

export type RendererTask = RenderTask | TrialTask | WarmUp;

/** An /api answer, as it crosses processes. */
export type ApiAnswer = HostAnswer;

/** What a task calls on the server that gave it (over the IPC channel, or in this process). */
export interface RenderHost {
  /** The task has left the queue: its deadline starts now. */
  started(): void;
  /** The page's /api request (a GET with no credentials), answered by the server. */
  api(url: string): Promise<ApiAnswer>;
  /**
   * A part's file on another origin (its server container: the remote map names where), fetched by
   * the server: a renderer has no network.
   */
  file(url: string, etag: string | null): Promise<ApiAnswer>;
  log(level: 'warn' | 'debug', message: string): void;
  /** A part's server container is being evaluated: if the task is abandoned now, that version is at fault. */
  reading(part: PartName, version: string, where: string): void;
  read(part: PartName, version: string, where: string, problem: string | null): void;
}
