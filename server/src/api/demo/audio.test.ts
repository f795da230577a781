import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_AUDIO_SCRIPT, DEMO_LIVE_FILE, DEMO_REPLAYS, DemoAudio } from './audio';
import { parseMp3 } from './mp3';

/** Runs ES module code in a child Node (lamejs and the generator are ES modules). */
function runModule(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
}

const script = pathToFileURL(DEMO_AUDIO_SCRIPT).href;

describe('demo audio generator', () => {
  it('makes the files the server announces, with the lengths it announces', () => {
    const pieces = JSON.parse(
      runModule(
        `import { PIECES } from '${script}'; console.log(JSON.stringify(PIECES.map((p) => ({ file: p.file, seconds: Math.floor((p.bars * 4 * 60) / p.bpm) }))));`,
      ),
    ) as { file: string; seconds: number }[];
    expect(pieces).toEqual([
      { file: DEMO_LIVE_FILE, seconds: expect.any(Number) as number },
      ...DEMO_REPLAYS.map(({ name, seconds }) => ({ file: `replays/${name}.mp3`, seconds })),
    ]);
  });

  it('encodes a seamless live loop of whole frames and a replay, and keeps existing files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-gen-'));
    try {
      // The live loop as shipped (16 bars, 32 s) and a short version of the first replay.
      const generate = `import { PIECES, generateDemoAudio } from '${script}';
        const pieces = [PIECES[0], { ...PIECES[1], bars: 4 }];
        console.log(await generateDemoAudio(${JSON.stringify(dir)}, pieces), await generateDemoAudio(${JSON.stringify(dir)}, pieces));`;
      expect(runModule(generate).trim()).toBe('2 0');
      const live = parseMp3(readFileSync(join(dir, DEMO_LIVE_FILE)));
      expect(live.sampleRate).toBe(22050);
      expect(live.frames).toHaveLength(1225);
      expect(live.seconds).toBeCloseTo(32, 5);
      const replay = parseMp3(readFileSync(join(dir, 'replays', `${DEMO_REPLAYS[0]?.name ?? ''}.mp3`)));
      expect(replay.seconds).toBeGreaterThanOrEqual(10);
      expect(replay.seconds).toBeLessThan(10.5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('DemoAudio', () => {
  it('says whether the folder is complete and has no live broadcast without the live file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-empty-'));
    const audio = new DemoAudio(dir);
    expect(audio.isComplete()).toBe(false);
    expect(audio.liveBroadcast()).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });
});
