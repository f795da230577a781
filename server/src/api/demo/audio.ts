import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_DIR } from '../env';
import type { DemoReplay } from './feed';
import { LiveBroadcast, type LiveOptions } from './live';
import { parseMp3 } from './mp3';

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
export const DEMO_LIVE_FILE = 'live.mp3';
export const DEMO_AUDIO_SCRIPT = join(SERVER_DIR, 'scripts', 'demo-audio.mjs');

/** The demo audio folder: the live loop (loaded when first asked for) and the replay files. */
export class DemoAudio {
  private live: LiveBroadcast | undefined;
  readonly replaysDir: string;

  constructor(
    readonly dir: string,
    private readonly liveOptions: Partial<LiveOptions> = {},
  ) {
    this.replaysDir = join(dir, 'replays');
    mkdirSync(this.replaysDir, { recursive: true });
  }

  isComplete(): boolean {
    return (
      existsSync(join(this.dir, DEMO_LIVE_FILE)) &&
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

  /** The live broadcast, or undefined while the live file is missing or unreadable. */
  liveBroadcast(): LiveBroadcast | undefined {
    if (this.live !== undefined) return this.live;
    try {
      const data = readFileSync(join(this.dir, DEMO_LIVE_FILE));
      this.live = new LiveBroadcast(data, parseMp3(data), this.liveOptions);
    } catch {
      return undefined;
    }
    return this.live;
  }

  close(): void {
    this.live?.close();
  }
}
