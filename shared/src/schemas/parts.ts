import * as v from 'valibot';

/** A version's record, as `GET /api/parts` says it (docs/deploy.md): no secret. */
const liveVersionSchema = v.object({
  version: v.string(),
  builtAt: v.nullable(v.string()),
  commit: v.nullable(v.string()),
  contract: v.nullable(v.string()),
  liveSince: v.string(),
  by: v.string(),
});

/**
 * `GET /api/parts`: each part of the site, the version it serves (null while it serves its build
 * with no record), whether that came from a deploy or the build, and its last refused deploy.
 */
export const partsAnswerSchema = v.object({
  parts: v.array(
    v.object({
      name: v.string(),
      live: v.nullable(liveVersionSchema),
      source: v.picklist(['deploy', 'build']),
      lastRefusal: v.nullable(v.object({ at: v.string(), reason: v.string(), by: v.string() })),
    }),
  ),
});
