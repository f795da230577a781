import { Redis } from 'ioredis';
import { options, PREFIX, shown, type SharedLog } from './connection';
import { figureVisitors, type SharedFigureVisitors } from './counters';

/** A Redis that keeps nothing on disk (FIGURES_REDIS_URL), for what must never reach one. */
export interface VolatileRedis {
  /** What names the figures' visitors (docs/figures.md, « In Redis »), to use while `usable` says so. */
  visitors: SharedFigureVisitors;
  /** Whether it answers and said, at its last connection, that it has no save point and no append-only file. */
  usable: () => boolean;
  close(): Promise<void>;
}

/**
 * Connects to a Redis meant to keep nothing on disk (docs/figures.md, « Nothing on disk »). Its word
 * is checked at each connection: `CONFIG GET save` must be empty and `appendonly` must be `no`. A
 * Redis that persists, or that refuses CONFIG GET, is not used (said in the log) until a
 * connection finds it right: its caller keeps what it would have put there in its own memory.
 */
export function connectVolatile(url: string, log: SharedLog): VolatileRedis {
  const redis = new Redis(url, options);
  const where = shown(url);
  let usable = false;
  // Whether the refusal has been said (said once, and its end).
  let said = false;
  const refuse = (why: string) => {
    if (usable || !said) log.warn(`Redis sans disque (${where}) non utilisé : ${why}`);
    usable = false;
    said = true;
  };
  redis.on('ready', () => {
    Promise.all([redis.config('GET', 'save'), redis.config('GET', 'appendonly')]).then(
      ([save, appendonly]) => {
        const value = (answer: unknown) => (Array.isArray(answer) && typeof answer[1] === 'string' ? answer[1] : null);
        const saves = value(save);
        const appends = value(appendonly);
        if (saves === '' && appends === 'no') {
          if (said) log.warn(`Redis sans disque (${where}) utilisé : ni sauvegarde ni journal`);
          usable = true;
          said = false;
        } else {
          refuse(
            `il écrit sur disque (save « ${saves ?? '?'} », appendonly « ${appends ?? '?'} ») ; voir deploy/redis-figures.conf`,
          );
        }
      },
      (error: unknown) => {
        refuse(
          `CONFIG GET refusé (${error instanceof Error ? error.message : String(error)}) ; voir deploy/redis-figures.acl`,
        );
      },
    );
  });
  redis.on('error', () => {
    usable = false;
  });
  redis.on('close', () => {
    usable = false;
  });
  return {
    visitors: figureVisitors(redis, (name) => `${PREFIX}figures:${name}`),
    usable: () => usable,
    close: async () => {
      redis.disconnect();
      await Promise.resolve();
    },
  };
}
