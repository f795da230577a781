import { randomBytes } from 'node:crypto';
import type { SharedLeases } from './leases';

/**
 * Work one instance does for the whole deployment (docs/deploy.md, « Redis »): the live's recorder
 * (docs/timeshift.md, « One recorder ») and « Me prévenir »'s sender (docs/push.md, « Several instances »). The lease is
 * tried every `checkMs` and, once held, renewed as often, for `ms` each time: an instance that dies
 * holding it frees it `ms` later, and another takes it over. Without leases (no Redis) this
 * instance is the only one, and holds it at once.
 *
 * Redis away while holding: the holder goes on, as nobody else can take the lease meanwhile; away
 * while not holding: it waits. A lease found taken by another (ours expired) is let go.
 */
export interface HeldLease {
  held(): boolean;
  close(): Promise<void>;
}

export interface LeaseOptions {
  leases: SharedLeases | null;
  name: string;
  ms: number;
  checkMs: number;
  /** Starts the work; called on taking the lease. */
  take: () => Promise<void>;
  /** Stops it; called on losing the lease and at close. */
  lose: () => Promise<void>;
  /** What the log says: the lease lost to another, or a renewal that failed (and why). */
  warn: (what: 'lost' | 'unrenewed', reason?: string) => void;
}

/** Holds the lease when it can; resolves once the first try is done (the work begun if taken). */
export async function holdLease(options: LeaseOptions): Promise<HeldLease> {
  const { leases, name, ms, take, lose, warn } = options;
  let held = false;
  let closed = false;
  if (leases === null) {
    await take();
    held = true;
    return {
      held: () => held,
      close: async () => {
        closed = true;
        held = false;
        await lose();
      },
    };
  }
  const token = randomBytes(16).toString('hex');
  const check = async () => {
    if (closed) return;
    try {
      if (!held) {
        if (await leases.take(name, token, ms)) {
          held = true;
          await take();
        }
      } else if (!(await leases.renew(name, token, ms))) {
        warn('lost');
        held = false;
        await lose();
      }
    } catch (error) {
      if (held) warn('unrenewed', error instanceof Error ? error.message : String(error));
    }
  };
  let checking: Promise<void> = check();
  await checking;
  const timer = setInterval(() => {
    checking = checking.then(check);
  }, options.checkMs);
  timer.unref();
  return {
    held: () => held,
    close: async () => {
      closed = true;
      clearInterval(timer);
      await checking;
      const was = held;
      held = false;
      await lose();
      if (was) await leases.release(name, token).catch(() => undefined);
    },
  };
}
