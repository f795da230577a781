import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { PARTS } from '@collectif/shared';
import { versionIdSchema } from '../deploy/versions';
import { parsed } from './connection';
import type { Sealer } from './seal';

/** A part's version made live by a deploy or a rollback on any instance (docs/deploy.md, « Every instance »). */
export interface SharedLive {
  part: string;
  id: string;
  receivedAt: string;
  about: Record<string, string>;
}

/** The parts' live versions, shared by the instances, with the archives to unpack them from. */
export interface SharedDeploys {
  /**
   * Says a version is live; with its archive when it is new (kept for the instances that lack it, at
   * most 30 days, and dropped sooner once three newer versions are kept: `forget`).
   */
  publish(live: SharedLive, archive?: Uint8Array): Promise<void>;
  /** Drops the archives of these versions of a part, and their signatures. */
  forget(part: string, ids: readonly string[]): Promise<void>;
  /** Every part's live version, for an instance that starts. */
  live(): Promise<SharedLive[]>;
  archive(part: string, id: string): Promise<Buffer | null>;
  /** Calls `listener` with each version made live by any instance. */
  listen(listener: (live: SharedLive) => void): void;
}

const PART_NAMES = PARTS.map((part) => part.name);
/** What a deploy says of a version (team, commit, build time, contract range): short texts. */
const aboutSchema = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(64)), v.pipe(v.string(), v.maxLength(500))),
  v.check((about) => Object.keys(about).length <= 20, 'trop de champs'),
);
const liveSchema = v.object({
  part: v.picklist(PART_NAMES),
  id: versionIdSchema,
  receivedAt: v.pipe(v.string(), v.isoTimestamp()),
  about: v.optional(aboutSchema, {}),
});

export const asLive = (text: string | null): SharedLive | null => parsed(liveSchema, text);

const ARCHIVE_KEPT_MS = 30 * 24 * 3600 * 1000;

/**
 * The parts' live versions on the deploys' connection (its commands may take seconds): each said on
 * `deployChannel` (heard on the subscriber's connection, shared-state.ts, which calls `deployListeners`).
 */
export function sharedDeploys(
  deployRedis: Redis,
  key: (name: string) => string,
  seals: Sealer,
  deployChannel: string,
  deployListeners: ((live: SharedLive) => void)[],
): SharedDeploys {
  return {
    async publish(live, archive) {
      const text = seals.seal(deployChannel, JSON.stringify(live));
      const batch = deployRedis.multi();
      if (archive !== undefined) {
        const place = key(`deploy:archive:${live.part}:${live.id}`);
        batch
          .set(place, Buffer.from(archive), 'PX', ARCHIVE_KEPT_MS)
          .set(`${place}:signature`, seals.sign(place, archive), 'PX', ARCHIVE_KEPT_MS);
      }
      await batch.hset(key('deploy:versions'), live.part, text).publish(deployChannel, text).exec();
    },
    async live() {
      const all = await deployRedis.hgetall(key('deploy:versions'));
      return Object.values(all)
        .map((text) => asLive(seals.open(deployChannel, text)))
        .filter((live): live is SharedLive => live !== null);
    },
    async archive(part, id) {
      // Only a part's name and a version's id of their forms make a key; an archive is taken only
      // with an instance's signature (a forged one would be a team's code no team sent).
      if (!v.is(liveSchema.entries.part, part) || !v.is(versionIdSchema, id)) return null;
      const place = key(`deploy:archive:${part}:${id}`);
      const [bytes, signature] = await Promise.all([
        deployRedis.getBuffer(place),
        deployRedis.get(`${place}:signature`),
      ]);
      return bytes !== null && signature !== null && seals.verify(place, bytes, signature) ? bytes : null;
    },
    async forget(part, ids) {
      // Only keys of the forms an archive is kept under are deleted (the ids are this instance's).
      if (!v.is(liveSchema.entries.part, part)) return;
      const places = ids.filter((id) => v.is(versionIdSchema, id)).map((id) => key(`deploy:archive:${part}:${id}`));
      if (places.length > 0) await deployRedis.del(...places.flatMap((place) => [place, `${place}:signature`]));
    },
    listen(listener) {
      deployListeners.push(listener);
    },
  };
}
