import { setTimeout as delay } from 'node:timers/promises';
import * as v from 'valibot';
import type { SharedCacheStore } from '../instances/shared-state';
import type { AccessToken } from '../upstream/token';

/** Where the one token of every instance is kept in Redis (signed like every shared value). */
export const TOKEN_KEY = 'helloasso:token';
/** How long an instance may hold the lock while it asks HelloAsso for a token. */
const LOCK_MS = 10_000;
const WAIT_MS = 2000;
const WAIT_STEP_MS = 50;

const keptSchema = v.object({
  accessToken: v.pipe(v.string(), v.minLength(1), v.maxLength(8192)),
  renewAt: v.pipe(v.number(), v.finite()),
});
type Kept = v.InferOutput<typeof keptSchema>;

/**
 * HelloAsso's access token (OAuth2 client credentials; docs/support.md, « The token »): asked once,
 * kept until shortly before it expires, then asked again before any call carries a dead one. With
 * Redis, one token for every instance: the instance that finds none (or one about to expire) takes
 * a lock, asks, and writes it signed; the others read it. HelloAsso limits how many tokens a client
 * may ask for, and each instance asking its own would reach that limit.
 */
export class SharedToken {
  private token: Kept | undefined;
  private inflight: Promise<string> | undefined;

  constructor(
    private readonly request: () => Promise<AccessToken>,
    private readonly options: { now: () => number; shared: SharedCacheStore | null },
  ) {}

  get(): Promise<string> {
    if (this.token !== undefined && this.options.now() < this.token.renewAt) {
      return Promise.resolve(this.token.accessToken);
    }
    this.inflight ??= this.renew().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** Forgets a token HelloAsso refused (401), here and in Redis, unless a newer one replaced it. */
  async invalidate(value: string): Promise<void> {
    if (this.token?.accessToken === value) this.token = undefined;
    const shared = this.options.shared;
    if (shared === null) return;
    try {
      const kept = await this.readShared(shared);
      if (kept?.accessToken === value) {
        await shared.write(TOKEN_KEY, { value: '{}', version: this.options.now(), expiresAt: 0 }, 1);
      }
    } catch {
      // Redis is away: this instance asks alone.
    }
  }

  private async renew(): Promise<string> {
    const shared = this.options.shared;
    if (shared !== null) {
      try {
        const kept = await this.readShared(shared);
        if (kept !== null) return this.keep(kept);
        if (await shared.lock(TOKEN_KEY, LOCK_MS)) {
          try {
            const again = await this.readShared(shared);
            if (again !== null) return this.keep(again);
            const fresh = await this.ask();
            await shared
              .write(
                TOKEN_KEY,
                { value: JSON.stringify(fresh), version: this.options.now(), expiresAt: fresh.renewAt },
                Math.max(1, fresh.renewAt - this.options.now()),
              )
              .catch(() => undefined);
            return this.keep(fresh);
          } finally {
            await shared.unlock(TOKEN_KEY).catch(() => undefined);
          }
        }
        for (let waited = 0; waited < WAIT_MS; waited += WAIT_STEP_MS) {
          await delay(WAIT_STEP_MS);
          const theirs = await this.readShared(shared);
          if (theirs !== null) return this.keep(theirs);
        }
      } catch {
        // Redis is away (logged by shared-state.ts): this instance asks alone.
      }
    }
    return this.keep(await this.ask());
  }

  private keep(token: Kept): string {
    this.token = token;
    return token.accessToken;
  }

  /** A new token, renewed a minute early (or at 90 % of a short life). */
  private async ask(): Promise<Kept> {
    const { accessToken, expiresInS } = await this.request();
    const margin = Math.min(60, expiresInS * 0.1) * 1000;
    return { accessToken, renewAt: this.options.now() + expiresInS * 1000 - margin };
  }

  /** The token in Redis, if it is one and is still good. */
  private async readShared(shared: SharedCacheStore): Promise<Kept | null> {
    const { entry } = await shared.read(TOKEN_KEY);
    if (entry === null) return null;
    try {
      const read = v.safeParse(keptSchema, JSON.parse(entry.value));
      return read.success && this.options.now() < read.output.renewAt ? read.output : null;
    } catch {
      return null;
    }
  }
}
