import * as v from 'valibot';
import { releaseSchema } from '@collectif/shared/schemas';

const line = v.pipe(v.string(), v.minLength(1), v.maxLength(120));

/**
 * server/content/releases.json as volunteers write it: the answer's release with the content's own
 * rules. The JSON Schema beside the file says the same with French descriptions for their editors
 * (releases.test.ts checks that both accept and refuse the same files).
 */
export const releasesContent = v.pipe(
  v.array(
    v.strictObject({
      ...releaseSchema.entries,
      href: v.pipe(v.string(), v.regex(/^\/album\/[a-z0-9]+(-[a-z0-9]+)*$/)),
      image: v.pipe(v.string(), v.regex(/^\/assets\/images\/releases\/[a-z0-9-]+(-\d+)?\.webp$/)),
      title: line,
      artist: line,
    }),
  ),
  v.minLength(1),
);
