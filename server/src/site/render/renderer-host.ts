import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PartName } from '@collectif/shared';
import {
  MAX_MESSAGE_BYTES,
  MAX_MESSAGES_AT_ONCE,
  MAX_MESSAGES_PER_SECOND,
  MAX_REQUESTS_PER_TASK,
  readMessage,
  type HostAnswer,
  type HostMessage,
  type RenderHost,
} from './protocol';
import { statusOnly } from './renderer-requests';

// A renderer's host channel from the server's side (docs/rendering.md, « The channel »): each message
// it sends for a page, bounded, checked and answered for its task; any message out of the protocol
// stops the renderer. Its process's start and stop are `renderer-process.ts`, off a page's way.

/** A renderer as its tasks see it. */
export interface TaskRenderer {
  /** Killed, or being killed: nothing it says is taken any more. */
  readonly stopping: boolean;
  /** Kills it now, saying why when it is the renderer's fault (the first reason is the one kept). */
  stop(why?: string): void;
}

/** A task in progress, found by its token when its renderer asks or tells. */
export interface TaskState {
  host: RenderHost;
  /** Requests (/api and files) it has made: bounded per task. */
  requests: number;
  /** The renderer that took it (its first message on the host channel, or its answer, says which). */
  renderer: TaskRenderer | null;
}

/** Reads a body up to `limit` bytes; null past it. */
async function boundedBody(message: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One renderer's host channel: what its node:http server does with each message. */
export class HostChannel {
  private window = { start: 0, count: 0 };
  private inFlight = 0;
  /**
   * The lane's own part has had its code evaluated here: from then on a `reading` naming another
   * part may be that code's lie (to get the shell or the player disabled), and is ignored. The
   * shell's and the player's containers are evaluated before the page's part (render-page.ts).
   */
  private laneEvaluated = false;
  /** The part whose `reading` was believed last: a `read` must name it. */
  private readingPart: PartName | null = null;

  /**
   * @param renderer the process the channel is of
   * @param lane its lane's part (null: a trial's or the shell's)
   * @param tasks the tasks in progress, by token
   * @param isReady told when the renderer says it is ready
   */
  constructor(
    private readonly renderer: TaskRenderer,
    private readonly lane: PartName | null,
    private readonly tasks: Map<string, TaskState>,
    private readonly isReady: () => void,
  ) {}

  /** The node:http server's listener. */
  readonly listener = (request: IncomingMessage, response: ServerResponse): void => {
    void this.answer(request, response);
  };

  /** Whether a `reading` of `part` may be believed (above). */
  private believed(part: PartName): boolean {
    const { lane } = this;
    if (lane === null || part === lane) {
      this.laneEvaluated = lane !== null;
      return true;
    }
    return !this.laneEvaluated;
  }

  /** One message on the host channel: bounded, checked, then answered; anything else stops the renderer. */
  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const now = Date.now();
    if (now - this.window.start >= 1000) this.window = { start: now, count: 0 };
    this.window.count += 1;
    this.inFlight += 1;
    response.on('close', () => {
      this.inFlight -= 1;
    });
    if (this.window.count > MAX_MESSAGES_PER_SECOND) {
      this.renderer.stop(`plus de ${String(MAX_MESSAGES_PER_SECOND)} messages en une seconde`);
      return;
    }
    if (this.inFlight > MAX_MESSAGES_AT_ONCE) {
      this.renderer.stop(`plus de ${String(MAX_MESSAGES_AT_ONCE)} messages à la fois`);
      return;
    }
    if (request.method !== 'POST' || request.url !== '/') {
      this.renderer.stop('message hors du protocole');
      return;
    }
    const body = await boundedBody(request, MAX_MESSAGE_BYTES).catch(() => null);
    const message = body === null ? null : readMessage(body);
    if (message === null) {
      this.renderer.stop(body === null ? 'message trop long' : 'message invalide');
      return;
    }
    const send = ({ status, headers, body: content }: HostAnswer) => {
      const kept = Object.entries(headers).filter(([name]) => ['content-type', 'etag', 'cache-control'].includes(name));
      response.writeHead(status, Object.fromEntries(kept));
      response.end(content);
    };
    if (message.type === 'ready') {
      this.isReady();
      send(statusOnly(204));
      return;
    }
    const task = this.tasks.get(message.task);
    // A task that has ended (a query still out past the data deadline): nothing to do.
    if (task === undefined) {
      send(statusOnly(410));
      return;
    }
    task.renderer ??= this.renderer;
    if (task.renderer !== this.renderer) {
      this.renderer.stop('message pour la tâche d’un autre processus');
      return;
    }
    send(await this.handle(message, task));
  }

  private async handle(message: Exclude<HostMessage, { type: 'ready' }>, task: TaskState): Promise<HostAnswer> {
    const { host } = task;
    switch (message.type) {
      case 'log':
        host.log(message.level, message.message);
        return statusOnly(204);
      case 'reading':
        if (this.believed(message.part)) {
          this.readingPart = message.part;
          host.reading(message.part, message.version, message.where);
        }
        return statusOnly(204);
      case 'read':
        if (message.part === this.readingPart) {
          this.readingPart = null;
          host.read(message.part, message.version, message.where, message.problem);
        }
        return statusOnly(204);
      case 'api':
      case 'file':
        task.requests += 1;
        if (task.requests > MAX_REQUESTS_PER_TASK) return statusOnly(429);
        return message.type === 'api' ? host.api(message.url) : host.file(message.url, message.etag);
    }
  }
}
