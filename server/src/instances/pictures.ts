import type { Redis } from 'ioredis';

/**
 * The pictures editors upload (docs/content.md, « Pictures »): each WebP file by its name, for an
 * instance asked for one it lacks, kept `keptMs` after its upload or its last renewal (the content
 * that names it renews it). A name comes from the content, so a file is written once and never
 * replaced. Every method may throw.
 */
export interface SharedPictures {
  /** Gives files to Redis (those it has are kept as they are), for `keptMs` from now. */
  put(files: readonly { name: string; bytes: Buffer }[]): Promise<void>;
  get(name: string): Promise<Buffer | null>;
  /** Keeps these files `keptMs` from now; the names Redis no longer has. */
  keep(names: readonly string[]): Promise<string[]>;
}

/** How long Redis keeps an uploaded picture after its upload or its last renewal (30 days). */
export const PICTURE_KEPT_MS = 30 * 24 * 3600 * 1000;

/** The pictures: given and read on the deploys' connection (they carry megabytes), kept on the command one. */
export function sharedPictures(redis: Redis, deployRedis: Redis, key: (name: string) => string): SharedPictures {
  return {
    async put(files) {
      const batch = deployRedis.multi();
      for (const { name, bytes } of files) {
        batch
          .set(key(`picture:${name}`), bytes, 'PX', PICTURE_KEPT_MS, 'NX')
          .pexpire(key(`picture:${name}`), PICTURE_KEPT_MS);
      }
      await batch.exec();
    },
    get: (name) => deployRedis.getBuffer(key(`picture:${name}`)),
    async keep(names) {
      const batch = redis.multi();
      for (const name of names) batch.pexpire(key(`picture:${name}`), PICTURE_KEPT_MS);
      const answers = (await batch.exec()) ?? [];
      return names.filter((_name, i) => answers[i]?.[1] !== 1);
    },
  };
}
