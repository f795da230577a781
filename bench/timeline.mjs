// The live's timeline as a listener meets it (issue 60), not a test: the built site on loopback
// recording the demo's two mounts (segments of --segment seconds), Debian's Chromium at 390×844.
//   1. the delay behind the edge: the MP3 stream at « Direct » (the time since the press minus the
//      element's position: what the listener has not heard yet of what was sent), and the HLS
//      nearest the edge the player allows (« Retard sur le direct » after ← from the edge);
//   2. the time from a press to sound when moving back: Home (the window's start), and
//      « Reprendre au début » when a show is on air;
//   3. the bytes a minute each rendition's segments take (what a listener downloads behind the edge).
// Writes bench/results/timeline.md and .json.
//   node bench/timeline.mjs [--segment=10] [--warm=45]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { launch, startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const segment = Number(arg('segment', '10'));
const warm = Number(arg('warm', '45'));
const dir = mkdtempSync(join(tmpdir(), 'direct-differe-bench-'));
const port = await freePort();
const origin = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port, {
  LIVE_TIMESHIFT_DIR: dir,
  LIVE_TIMESHIFT_SEGMENT_S: String(segment),
  LIVE_TIMESHIFT_HOURS: '1',
});
const figures = {};
try {
  // A window of a few segments before a listener comes.
  await delay(warm * 1000);
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: 'Stream : ouvrir le lecteur' }).click();
  const pressed = Date.now();
  await page.waitForFunction(
    () => {
      const audio = document.querySelector('#lecteur-audio');
      return audio !== null && !audio.paused && audio.currentTime > 5;
    },
    undefined,
    { timeout: 30_000 },
  );
  const position = await page.evaluate(() => document.querySelector('#lecteur-audio').currentTime);
  figures.mp3DelayMs = Math.round(Date.now() - pressed - position * 1000);

  const slider = page.getByRole('slider', { name: 'Position dans le direct' });
  await slider.waitFor({ timeout: 30_000 });
  // Into the timeline, then → as far as the player goes: the HLS edge's delay.
  await slider.focus();
  // From a press to the element's next 'playing' on the timeline's stream (a blob: address), with
  // its time then moving on: sound, measured in the page.
  const arm = () =>
    page.evaluate(() => {
      const audio = document.querySelector('#lecteur-audio');
      const marks = { pressed: performance.now(), playing: null };
      window.benchMarks = marks;
      audio.addEventListener('playing', function once() {
        if (!audio.currentSrc.startsWith('blob:')) return;
        marks.playing = performance.now();
        audio.removeEventListener('playing', once);
      });
    });
  const heard = async () => {
    await page.waitForFunction(() => window.benchMarks.playing !== null, undefined, { timeout: 30_000 });
    const at = await page.evaluate(() => document.querySelector('#lecteur-audio').currentTime);
    await page.waitForFunction((from) => document.querySelector('#lecteur-audio').currentTime > from + 0.2, at, {
      timeout: 30_000,
    });
    return Math.round(await page.evaluate(() => window.benchMarks.playing - window.benchMarks.pressed));
  };
  const soundAfter = async (key) => {
    await arm();
    await page.keyboard.press(key);
    return heard();
  };
  figures.homeToSoundMs = await soundAfter('Home');
  await delay(2000);
  // Back to the edge, then one step back: the player plays the HLS no nearer the edge than hls.js's
  // live sync allows.
  await page.keyboard.press('End');
  await delay(3000);
  figures.leftToSoundMs = await soundAfter('ArrowLeft');
  await delay(3000);
  figures.hlsNearestEdge = await slider.getAttribute('aria-valuetext');
  const rewind = page.getByRole('button', { name: 'Reprendre au début' });
  if (await rewind.isVisible()) {
    await page
      .getByRole('button', { name: 'Revenir au direct' })
      .click()
      .catch(() => undefined);
    await delay(2000);
    await arm();
    await rewind.click();
    figures.rewindToSoundMs = await heard();
  } else {
    figures.rewindToSoundMs = 'aucune émission à l’antenne';
  }
  await browser.close();

  for (const rendition of readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory())) {
    const index = JSON.parse(readFileSync(join(dir, rendition, 'index.json'), 'utf8'));
    const bytes = index.segments.reduce((sum, each) => sum + each.bytes, 0);
    const seconds = index.segments.reduce((sum, each) => sum + each.duration, 0);
    figures[`${rendition}BytesPerMinute`] = Math.round((bytes / seconds) * 60);
  }
} finally {
  server.kill();
  await delay(500);
  rmSync(dir, { recursive: true, force: true });
}

const lines = [
  '# The live’s timeline, as a listener meets it',
  '',
  `\`node bench/timeline.mjs --segment=${String(segment)}\`, ${new Date().toISOString().slice(0, 10)}, one machine, loopback, Debian's Chromium at 390×844.`,
  '',
  '| figure | value |',
  '| --- | --- |',
  ...Object.entries(figures).map(([name, value]) => `| ${name} | ${String(value)} |`),
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'timeline.md'), lines.join('\n'));
writeFileSync(join(root, 'bench', 'results', 'timeline.json'), `${JSON.stringify({ segment, figures }, null, 2)}\n`);
console.log(lines.join('\n'));
