// Checks every content and configuration file against its schema; exits 1 with one line per problem.
import { fileURLToPath } from 'node:url';
import { checkAllContent } from '../shared/build/content.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const problems = checkAllContent(root);
if (problems.length > 0) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
