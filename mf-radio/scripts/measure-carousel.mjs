// Calibrates the carousel's transition: Embla's `duration` option is a speed factor of its
// physics, not milliseconds. This measures, in Chromium, how long one full-width step takes to
// settle for several values, at a phone and a desktop width, so that EMBLA_DURATION in
// src/home/Carousel.tsx can be set to the spec's 500 ms.
//   node mf-radio/scripts/measure-carousel.mjs
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium } from '@playwright/test';

const require = createRequire(import.meta.url);
// The UMD build is not in the package's exports: found beside its CommonJS entry.
const emblaDir = dirname(dirname(require.resolve('embla-carousel')));
const embla = readFileSync(join(emblaDir, 'embla-carousel.umd.js'), 'utf8');
const durations = [20, 21, 22, 25];
const widths = [358, 1168];
const RUNS = 9;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();
await page.setContent(
  `<div id="v" style="overflow:hidden"><div id="c" style="display:flex">
     <div style="flex:0 0 100%;height:100px;background:red"></div>
     <div style="flex:0 0 100%;height:100px;background:blue"></div>
   </div></div><script>${embla}</script>`,
);

// Written as a string: it runs in the page, where EmblaCarousel and the DOM exist.
const measure = `async ({ duration, width, runs }) => {
  document.getElementById('v').style.width = width + 'px';
  const container = document.getElementById('c');
  const api = EmblaCarousel(document.getElementById('v'), { loop: true, duration });
  const position = () => new DOMMatrix(getComputedStyle(container).transform).m41;
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const samples = [];
    let sampling = true;
    const sample = () => {
      samples.push([performance.now(), position()]);
      if (sampling) requestAnimationFrame(sample);
    };
    const start = performance.now();
    const settled = new Promise((resolve) => api.on('settle', resolve));
    api.scrollNext();
    requestAnimationFrame(sample);
    await settled;
    sampling = false;
    const end = position();
    // Visually over once the slide has covered 99 % of the way (Embla's own 'settle' waits far longer,
    // for the last fraction of a pixel).
    const last = samples.filter(([, x]) => Math.abs(x - end) > width / 100).pop();
    times.push((last === undefined ? start : last[0]) - start);
  }
  api.destroy();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}`;

console.log(`durée Embla → temps médian pour 99 % du trajet (ms), ${String(RUNS)} essais`);
for (const duration of durations) {
  const row = [];
  for (const width of widths) {
    const ms = await page.evaluate(`(${measure})(${JSON.stringify({ duration, width, runs: RUNS })})`);
    row.push(`${String(width)} px : ${String(Math.round(ms))}`);
  }
  console.log(`duration ${String(duration)} → ${row.join(' · ')}`);
}
await browser.close();
