// The parts of the site as the build, start, dev and test scripts use them: the registry of parts
// (shared/parts.mjs, docs/parts.md) with each part's folder on this machine.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { PARTS } from '../shared/parts.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));

export const parts = PARTS.map((part) => ({ ...part, dir: join(root, part.folder) }));
