import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// From the file's own name: loaded by jest or through tsx (a bench), `__dirname` is not always set.
const SERVER_DIR = join(dirname(__filename), '..', '..', '..');
const DEMO_DIR = join(SERVER_DIR, '.demo');
const DEMO_SCRIPT = join(SERVER_DIR, 'scripts', 'demo-audio.mjs');

/**
 * One of the demo's MP3 files (server/.demo: `live.mp3`, the normal live; `live-econome.mp3`, the
 * light one), generated first when missing (server/scripts/demo-audio.mjs, a few seconds).
 */
export function demoMp3(file = 'live.mp3'): Buffer {
  const path = join(DEMO_DIR, file);
  if (!existsSync(path)) {
    spawnSync(process.execPath, [DEMO_SCRIPT, DEMO_DIR], { stdio: 'ignore' });
  }
  if (!existsSync(path)) throw new Error(`fichier de démonstration absent après génération : ${file}`);
  return readFileSync(path);
}
