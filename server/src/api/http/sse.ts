import type { ServerResponse } from 'node:http';
import type { NowPlaying } from '@collectif/shared';
import type { SharedEvent, SharedEventChannel } from '../../instances/shared-state';

export interface HubOptions {
  pollMs: number;
  pingMs: number;
  maxPerClient: number;
  /** Sent at connect when the upstream has never answered. */
  fallback: NowPlaying;
  /**
   * The deployment's channel in Redis (REDIS_URL): events published once, with the same ids on
   * every instance (docs/deploy.md, « Shared state »). Without it, this process numbers its own.
   */
  channel?: SharedEventChannel;
  /**
   * Given each value read from the upstream and each event heard (the recorder of what the radio
   * played, docs/content.md): with it, the upstream is read every `pollMs` whether anyone listens
   * or not, until `close`.
   */
  observe?: (data: string) => void;
}

/** Events kept for a listener that comes back with Last-Event-ID. */
const RECENT = 50;

/**
 * Whether `event` comes after `known`: the deployment's ids (Redis) are numbers in order; this
 * process's own are `epoch-n`; one of each kind is a change of source (Redis gone or back), new.
 */
function isAfter(event: SharedEvent, known: SharedEvent): boolean {
  if (event.id === known.id) return false;
  const [a, b] = [Number(event.id), Number(known.id)];
  return Number.isInteger(a) && Number.isInteger(b) ? a > b : true;
}

/**
 * The now-playing channel: one upstream read per poll for all listeners (never one per listener),
 * an event to everyone when the song changes, and comment pings so proxies keep idle streams open.
 * The timers run only while someone listens.
 *
 * Every event has an id. A listener that reconnects (EventSource sends `Last-Event-ID`) gets the
 * events it missed, or nothing if it missed none; one whose id is unknown gets the latest. With a
 * shared channel the ids are the deployment's, so this holds when it reconnects to another instance.
 */
export class NowPlayingHub {
  /** Listeners, with their client address, and whether they have had their first event. */
  private readonly clients = new Map<ServerResponse, { client: string; ready: boolean }>();
  private readonly perClient = new Map<string, number>();
  /** The latest events, oldest first; the last one is what is playing. */
  private recent: SharedEvent[] = [];
  private sequence = 0;
  /** Ids of this process's own events (Redis away or unset), unlike any other run's. */
  private readonly epoch = Date.now().toString(36);
  private poll: NodeJS.Timeout | undefined;
  private ping: NodeJS.Timeout | undefined;

  constructor(
    private readonly read: () => Promise<NowPlaying>,
    private readonly options: HubOptions,
  ) {
    options.channel?.listen((event) => {
      this.deliver(event);
    });
    if (options.observe !== undefined) {
      this.poll = setInterval(() => {
        void this.refresh();
      }, options.pollMs);
      this.poll.unref();
    }
  }

  get size(): number {
    return this.clients.size;
  }

  private get last(): SharedEvent | undefined {
    return this.recent.at(-1);
  }

  accepts(client: string): boolean {
    return (this.perClient.get(client) ?? 0) < this.options.maxPerClient;
  }

  /**
   * Adds a listener whose event-stream headers are sent; it gets what it missed since `lastEventId`,
   * or the current value at once.
   */
  async attach(response: ServerResponse, client: string, lastEventId?: string): Promise<void> {
    this.clients.set(response, { client, ready: false });
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    response.once('close', () => {
      this.detach(response);
    });
    response.on('error', () => {
      this.detach(response);
    });
    this.start();
    response.write('retry: 5000\n\n');
    if (this.last === undefined) await this.refresh();
    await this.catchUp();
    const seen = lastEventId === undefined ? -1 : this.recent.findIndex((event) => event.id === lastEventId);
    if (seen >= 0) for (const event of this.recent.slice(seen + 1)) this.write(response, event);
    else this.write(response, this.last ?? { id: '', data: JSON.stringify(this.options.fallback) });
    const listener = this.clients.get(response);
    if (listener !== undefined) listener.ready = true;
  }

  /** Reads the upstream once and tells every listener when the value changed. */
  async refresh(): Promise<void> {
    let json: string;
    try {
      json = JSON.stringify(await this.read());
    } catch {
      return; // Listeners keep the last value; the next poll tries again.
    }
    this.options.observe?.(json);
    const channel = this.options.channel;
    if (channel !== undefined) {
      try {
        // Published once for the deployment; every instance (this one too) hears it on the channel.
        const event = await channel.publish(json);
        if (event !== null) this.deliver(event);
        else if (this.last?.data !== json) await this.catchUp();
        return;
      } catch {
        // Redis is away (logged by shared-state.ts): this process numbers its own events meanwhile.
      }
    }
    if (json === this.last?.data) return;
    this.sequence += 1;
    this.deliver({ id: `${this.epoch}-${String(this.sequence)}`, data: json });
  }

  close(): void {
    for (const response of this.clients.keys()) response.end();
    this.clients.clear();
    this.perClient.clear();
    this.stop();
    clearInterval(this.poll);
    this.poll = undefined;
  }

  /**
   * The deployment's latest events, from Redis, in their order (a new instance, or one that missed
   * some): they replace what this process has, and its listeners get those they have not had.
   */
  private async catchUp(): Promise<void> {
    if (this.options.channel === undefined) return;
    let events: SharedEvent[];
    try {
      events = await this.options.channel.recent();
    } catch {
      return; // Redis is away: what this process has.
    }
    if (events.length === 0) return;
    const known = this.last;
    this.recent = events.slice(-RECENT);
    if (known === undefined) return;
    for (const event of events.filter((candidate) => isAfter(candidate, known))) this.tell(event);
  }

  /** A new event: kept, and written to every listener that has had its first. */
  private deliver(event: SharedEvent): void {
    const known = this.last;
    if (known !== undefined && !isAfter(event, known)) return;
    this.options.observe?.(event.data);
    this.recent = [...this.recent, event].slice(-RECENT);
    this.tell(event);
  }

  private tell(event: SharedEvent): void {
    for (const [response, listener] of this.clients) if (listener.ready) this.write(response, event);
  }

  private write(response: ServerResponse, event: SharedEvent): void {
    if (response.destroyed || response.writableEnded) return;
    response.write(`${event.id === '' ? '' : `id: ${event.id}\n`}event: nowplaying\ndata: ${event.data}\n\n`);
  }

  private detach(response: ServerResponse): void {
    const listener = this.clients.get(response);
    if (listener === undefined) return;
    this.clients.delete(response);
    const left = (this.perClient.get(listener.client) ?? 1) - 1;
    if (left > 0) this.perClient.set(listener.client, left);
    else this.perClient.delete(listener.client);
    if (this.clients.size === 0) this.stop();
  }

  private start(): void {
    this.poll ??= setInterval(() => {
      void this.refresh();
    }, this.options.pollMs);
    this.ping ??= setInterval(() => {
      for (const response of this.clients.keys()) if (!response.destroyed) response.write(': ping\n\n');
    }, this.options.pingMs);
  }

  private stop(): void {
    // The recorder's polling goes on without listeners (close stops it).
    if (this.options.observe === undefined) {
      clearInterval(this.poll);
      this.poll = undefined;
    }
    clearInterval(this.ping);
    this.ping = undefined;
    // With nobody listening the value may change unseen; the next listener reads it afresh (its
    // events, alone, are kept: a listener coming back with an id still finds it).
    if (this.options.channel === undefined) this.recent = [];
  }
}
