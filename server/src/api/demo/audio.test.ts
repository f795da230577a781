import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fakeAudioDir, fakeMp3 } from '../testing/fixtures';
import { DEMO_AUDIO_SCRIPT, DEMO_LIVE_FILE, DEMO_LIVE_FILES, DEMO_REPLAYS, DemoAudio } from './audio';
import { parseMp3, readFrameHeader } from '../../timeshift/mp3';

/** The bit rate of an mp3's first frame, in kb/s, from its size (22.05 kHz MPEG-2 layer III). */
const kbpsOf = (data: Buffer) => Math.round(((readFrameHeader(data, 0)?.size ?? 0) * 22050) / 72 / 1000);

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
      { file: DEMO_LIVE_FILES.econome, seconds: expect.any(Number) as number },
      ...DEMO_REPLAYS.map(({ name, seconds }) => ({ file: `replays/${name}.mp3`, seconds })),
    ]);
  });

  it('encodes both live mounts as seamless loops on one frame grid, a replay, and keeps existing files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-gen-'));
    try {
      // A clone of before the light mount: its live loop at 64 kb/s, which is written again at 128.
      writeFileSync(join(dir, DEMO_LIVE_FILE), fakeMp3(50));
      // The live loops as shipped (16 bars, 32 s) and a short version of the first replay.
      const generate = `import { PIECES, generateDemoAudio } from '${script}';
        const pieces = [PIECES[0], PIECES[1], { ...PIECES[2], bars: 4 }];
        console.log(await generateDemoAudio(${JSON.stringify(dir)}, pieces), await generateDemoAudio(${JSON.stringify(dir)}, pieces));`;
      expect(runModule(generate).trim()).toBe('3 0');
      const normal = readFileSync(join(dir, DEMO_LIVE_FILES.normale));
      const light = readFileSync(join(dir, DEMO_LIVE_FILES.econome));
      expect([kbpsOf(normal), kbpsOf(light)]).toEqual([128, 48]);
      for (const data of [normal, light]) {
        const live = parseMp3(data);
        expect(live.sampleRate).toBe(22050);
        expect(live.frames).toHaveLength(1225);
        expect(live.seconds).toBeCloseTo(32, 5);
        // Every frame decodes on its own (no bit reservoir): the loop's end joins its start.
        expect(live.frames.filter(({ offset }) => data[offset + 4] !== 0)).toEqual([]);
      }
      // 32 s at 128 and 48 kb/s.
      expect(normal.length).toBe(512_000);
      expect(light.length).toBe(192_000);
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
    expect(audio.liveBroadcast('econome')).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
    expect(new DemoAudio(fakeAudioDir()).isComplete()).toBe(true);
  });

  it('is incomplete with the files of a clone made before the light mount, so that it is generated', () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-old-'));
    try {
      mkdirSync(join(dir, 'replays'));
      writeFileSync(join(dir, DEMO_LIVE_FILE), fakeMp3(10));
      for (const { name } of DEMO_REPLAYS) writeFileSync(join(dir, 'replays', `${name}.mp3`), fakeMp3(10));
      const audio = new DemoAudio(dir);
      expect(audio.isComplete()).toBe(false);
      expect(audio.liveBroadcast('normale')).toBeDefined();
      expect(audio.liveBroadcast('econome')).toBeUndefined();
      audio.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
