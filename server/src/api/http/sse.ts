import type { ServerResponse } from 'node:http';
import type { NowPlaying } from '@collectif/shared';

export interface HubOptions {
  pollMs: number;
  pingMs: number;
  maxPerClient: number;
  /** Sent at connect when the upstream has never answered. */
  fallback: NowPlaying;
}

/**
 * The now-playing channel: one upstream read per poll for all listeners (never one per listener),
 * an event to everyone when the song changes, and comment pings so proxies keep idle streams open.
 * The timers run only while someone listens.
 */
export class NowPlayingHub {
  private readonly clients = new Map<ServerResponse, string>();
  private readonly perClient = new Map<string, number>();
  private last: string | undefined;
  private poll: NodeJS.Timeout | undefined;
  private ping: NodeJS.Timeout | undefined;

  constructor(
    private readonly read: () => Promise<NowPlaying>,
    private readonly options: HubOptions,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  accepts(client: string): boolean {
    return (this.perClient.get(client) ?? 0) < this.options.maxPerClient;
  }

  /** Adds a listener whose event-stream headers are sent; it gets the current value at once. */
  async attach(response: ServerResponse, client: string): Promise<void> {
    this.clients.set(response, client);
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
    this.write(response, this.last ?? JSON.stringify(this.options.fallback));
  }

  /** Reads the upstream once and tells every listener when the value changed. */
  async refresh(): Promise<void> {
    let json: string;
    try {
      json = JSON.stringify(await this.read());
    } catch {
      return; // Listeners keep the last value; the next poll tries again.
    }
    if (json === this.last) return;
    const first = this.last === undefined;
    this.last = json;
    if (!first) for (const response of this.clients.keys()) this.write(response, json);
  }

  close(): void {
    for (const response of this.clients.keys()) response.end();
    this.clients.clear();
    this.perClient.clear();
    this.stop();
  }

  private write(response: ServerResponse, json: string): void {
    if (!response.destroyed && !response.writableEnded) response.write(`event: nowplaying\ndata: ${json}\n\n`);
  }

  private detach(response: ServerResponse): void {
    const client = this.clients.get(response);
    if (client === undefined) return;
    this.clients.delete(response);
    const left = (this.perClient.get(client) ?? 1) - 1;
    if (left > 0) this.perClient.set(client, left);
    else this.perClient.delete(client);
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
    clearInterval(this.poll);
    clearInterval(this.ping);
    this.poll = undefined;
    this.ping = undefined;
    // With nobody listening the value may change unseen; the next listener reads it afresh.
    this.last = undefined;
  }
}
