import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_DIR } from '../env';
import type { DemoReplay } from './feed';
import { LIVE_DEFAULTS, LiveBroadcast, type LiveOptions } from './live';
import { parseMp3 } from '../../timeshift/mp3';

/**
 * The files server/scripts/demo-audio.mjs writes (its PIECES), with their playing time in whole
 * seconds, which the demo feed announces. A test checks both lists agree.
 */
export const DEMO_REPLAYS: readonly DemoReplay[] = [
  { name: 'lever-du-jour', seconds: 60 },
  { name: 'basse-frequence', seconds: 58 },
  { name: 'pluie-douce', seconds: 60 },
  { name: 'nuit-blanche', seconds: 60 },
];
/**
 * The demo's two live mounts (docs/server.md, « Demo mode »), the same loop at 128 and 48 kb/s on the
 * same frame grid: site.json's renditions `normale` and `econome`.
 */
export const DEMO_LIVE_FILES = { normale: 'live.mp3', econome: 'live-econome.mp3' } as const;
export type DemoMount = keyof typeof DEMO_LIVE_FILES;
export const DEMO_LIVE_FILE = DEMO_LIVE_FILES.normale;
export const DEMO_AUDIO_SCRIPT = join(SERVER_DIR, 'scripts', 'demo-audio.mjs');

/** The demo audio folder: the live loops (each loaded when first asked for) and the replay files. */
export class DemoAudio {
  private readonly live = new Map<DemoMount, LiveBroadcast>();
  readonly replaysDir: string;

  constructor(
    readonly dir: string,
    private readonly liveOptions: Partial<LiveOptions> = {},
  ) {
    this.replaysDir = join(dir, 'replays');
    mkdirSync(this.replaysDir, { recursive: true });
  }

  /** Whether every file is there: a folder made before the light mount is not, and is generated again. */
  isComplete(): boolean {
    return (
      Object.values(DEMO_LIVE_FILES).every((file) => existsSync(join(this.dir, file))) &&
      DEMO_REPLAYS.every(({ name }) => existsSync(join(this.replaysDir, `${name}.mp3`)))
    );
  }

  /**
   * Runs the generator in a child process (lamejs is an ES module, and encoding would block this
   * process for seconds). Resolves with whether it succeeded; never rejects. It inherits the server's
   * environment, secrets included: started, as the server is, with no inspector to open on SIGUSR1
   * (docs/deploy.md, « The server, built »).
   */
  generate(script = DEMO_AUDIO_SCRIPT): Promise<boolean> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--disable-sigusr1', script, this.dir], { stdio: 'ignore' });
      child.once('error', () => {
        resolve(false);
      });
      child.once('exit', (code) => {
        resolve(code === 0);
      });
      // A server that stops does not wait for the generator; the files are written atomically.
      child.unref();
    });
  }

  /**
   * A mount's live broadcast, or undefined while its file is missing or unreadable. Every mount runs
   * on the same clock (`liveOptions.now`), so all are at the same point of the loop.
   */
  liveBroadcast(mount: DemoMount = 'normale'): LiveBroadcast | undefined {
    const known = this.live.get(mount);
    if (known !== undefined) return known;
    try {
      const data = readFileSync(join(this.dir, DEMO_LIVE_FILES[mount]));
      const broadcast = new LiveBroadcast(data, parseMp3(data), this.liveOptions);
      this.live.set(mount, broadcast);
      return broadcast;
    } catch {
      return undefined;
    }
  }

  /** Whether the listeners of every mount together reach the limit (DEMO_LIVE_MAX_LISTENERS). */
  isLiveFull(): boolean {
    let listeners = 0;
    for (const broadcast of this.live.values()) listeners += broadcast.listenerCount;
    return listeners >= (this.liveOptions.maxListeners ?? LIVE_DEFAULTS.maxListeners);
  }

  close(): void {
    for (const broadcast of this.live.values()) broadcast.close();
  }
}
