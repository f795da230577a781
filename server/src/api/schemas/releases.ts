/**
 * server/content/releases.json as volunteers write it: the content's own schema
 * (shared/src/schemas/content.mjs), from which the JSON Schema beside the file is written.
 */
export { releasesContentSchema as releasesContent } from '@collectif/shared/content-schemas';
