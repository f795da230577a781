// The parts of the site and where they build; used by the build, start and test scripts.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const root = fileURLToPath(new URL('..', import.meta.url));

export const parts = [
  { name: 'shell', dir: join(root, 'shell') },
  { name: 'player', dir: join(root, 'mf-player') },
  { name: 'radio', dir: join(root, 'mf-radio') },
  { name: 'label', dir: join(root, 'mf-label') },
  { name: 'about', dir: join(root, 'mf-about') },
];
