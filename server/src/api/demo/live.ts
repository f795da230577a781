import type { ServerResponse } from 'node:http';
import type { Mp3Frames } from '../../timeshift/mp3';

export interface LiveOptions {
  /** Audio sent ahead of the clock, so a player starts at once and rides over network hiccups. */
  leadMs: number;
  tickMs: number;
  maxListeners: number;
  /** A listener whose unsent buffer passes this is skipped ahead rather than buffered without end. */
  maxBufferedBytes: number;
  now: () => number;
}

export const LIVE_DEFAULTS: LiveOptions = {
  leadMs: 2500,
  tickMs: 200,
  maxListeners: 200,
  maxBufferedBytes: 256 * 1024,
  now: Date.now,
};

interface Listener {
  response: ServerResponse;
  /** The next frame to send, counted on the shared clock (not wrapped to the loop). */
  next: number;
}

/**
 * The demo live stream, served like Icecast: an endless mp3 made of the loop's frames, paced at
 * real time. Every listener follows one clock (frame number = time since the Unix epoch / frame
 * length), so all of them, on any server, hear the same point of the loop; a new one joins there.
 * One timer feeds every listener.
 */
export class LiveBroadcast {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private readonly options: LiveOptions;

  constructor(
    private readonly data: Buffer,
    private readonly loop: Mp3Frames,
    options: Partial<LiveOptions> = {},
  ) {
    this.options = { ...LIVE_DEFAULTS, ...options };
  }

  /** The frame playing now, on the shared clock. */
  currentFrame(): number {
    return Math.floor(this.options.now() / this.loop.frameMs);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  isFull(): boolean {
    return this.listeners.size >= this.options.maxListeners;
  }

  /** The bytes of frames [from, to) of the endless stream. */
  framesBetween(from: number, to: number): Buffer {
    const count = this.loop.frames.length;
    const parts: Buffer[] = [];
    for (let n = from; n < to; n += 1) {
      const frame = this.loop.frames[((n % count) + count) % count];
      if (frame !== undefined) parts.push(this.data.subarray(frame.offset, frame.offset + frame.size));
    }
    return Buffer.concat(parts);
  }

  /** Adds a listener whose headers are already sent; it gets the lead at once, then real time. */
  attach(response: ServerResponse): void {
    const listener: Listener = { response, next: this.currentFrame() };
    this.listeners.add(listener);
    const detach = () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
    response.on('close', detach);
    response.on('error', detach);
    this.feed(listener, this.target());
    this.timer ??= setInterval(() => {
      const target = this.target();
      for (const each of this.listeners) this.feed(each, target);
    }, this.options.tickMs);
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    for (const listener of this.listeners) listener.response.end();
    this.listeners.clear();
    this.stop();
  }

  private target(): number {
    return this.currentFrame() + Math.ceil(this.options.leadMs / this.loop.frameMs);
  }

  private feed(listener: Listener, target: number): void {
    const { response } = listener;
    if (response.destroyed || response.writableEnded) return;
    if (response.writableLength > this.options.maxBufferedBytes) {
      // A stalled client skips ahead: it stays on the shared clock instead of falling behind.
      listener.next = target;
      return;
    }
    if (listener.next >= target) return;
    const from = Math.max(listener.next, target - Math.ceil(this.options.leadMs / this.loop.frameMs) * 2);
    response.write(this.framesBetween(from, target));
    listener.next = target;
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
