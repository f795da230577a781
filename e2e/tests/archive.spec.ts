import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { audioTime } from '../audio';
import { expect, gotoPage, test } from '../fixtures';
import { player } from '../screen';
import { freePort } from '../../scripts/ports.mjs';
import { serverArgs } from '../../scripts/server-command.mjs';

// « Réécouter le direct » in a real Chromium (docs/archive.md): a site whose programme (a calendar on
// the loopback) has a slot of Axonberg of a minute, starting once the server records the demo's live;
// when it ends, its archive appears as an episode, and its page plays it in the persistent player
// from one of its chapters (the tracks the demo's radio played during the slot).

const SLOT_MS = 60_000;
const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
/** `axonberg-2026-11-24-20h00`: the slot's start in Paris time (server/src/archive/record.ts). */
function archiveId(start: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('fr-FR', {
      timeZone: 'Europe/Paris',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(start))
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  return `axonberg-${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}-${parts.hour ?? ''}h${parts.minute ?? ''}`;
}

let calendar: Server;
let server: ChildProcess;
let origin = '';
let folder = '';
let slotStart = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // On a whole minute, so that the archive's id (to the minute) is its start's.
  slotStart = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
  calendar = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' })
      .end(
        [
          'BEGIN:VCALENDAR',
          'VERSION:2.0',
          'PRODID:-//Test//FR',
          'BEGIN:VEVENT',
          'UID:synapses@test',
          `DTSTART:${stamp(slotStart)}`,
          `DTEND:${stamp(slotStart + SLOT_MS)}`,
          'SUMMARY:Axonberg · Synapses',
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
      );
  });
  await new Promise<void>((resolve) => calendar.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  origin = `http://127.0.0.1:${String(port)}`;
  folder = mkdtempSync(join(tmpdir(), 'archives-du-direct-'));
  server = spawn(process.execPath, serverArgs(), {
    cwd: join(__dirname, '..', '..'),
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_ORIGIN: origin,
      LOG_LEVEL: 'silent',
      CONTENT_DIR: join(folder, 'contenu'),
      LIVE_TIMESHIFT_DIR: join(folder, 'direct'),
      LIVE_ARCHIVE_DIR: join(folder, 'archives'),
      LIVE_TIMESHIFT_SEGMENT_S: '2',
      LIVE_TIMESHIFT_HOURS: '1',
      LIVE_ARCHIVE: 'all',
      SCHEDULE_ICS_URLS: `http://127.0.0.1:${String((calendar.address() as AddressInfo).port)}/radio.ics`,
    },
  });
  await expect
    .poll(async () => (await fetch(`${origin}/healthz`).catch(() => null))?.ok ?? false, { timeout: 60_000 })
    .toBe(true);
});

test.afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill();
    await exited;
  }
  await new Promise((resolve) => calendar.close(resolve));
  rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
});

test('a live show kept when its slot ends plays from a chapter in the persistent player', async ({ page }) => {
  test.setTimeout(240_000);
  const id = archiveId(slotStart);
  // The slot's end, two segments of settling, and the archiver's look every 30 s.
  await expect
    .poll(async () => (await fetch(`${origin}/api/episodes/${id}`).catch(() => null))?.status ?? 0, {
      timeout: SLOT_MS + 120_000,
      intervals: [2000],
    })
    .toBe(200);
  const mp3 = await fetch(`${origin}/archives/${id}.mp3`, { headers: { range: 'bytes=0-2' } });
  expect(mp3.status).toBe(206);
  expect(Buffer.from(await mp3.arrayBuffer()).toString('latin1')).toBe('ID3');

  // Hydrated before a chapter is clicked: it plays in the page, which stays.
  await gotoPage(page, `${origin}/emissions/${id}`);
  const tracklist = page.getByRole('region', { name: 'Titres joués' });
  await expect(tracklist.getByRole('heading', { level: 2, name: 'Titres joués' })).toBeVisible();
  // Its chapters: the track playing when the slot began (the demo's radio, known from its rotation),
  // and those the server heard start during it.
  const times = tracklist.getByRole('link', { name: /^Écouter à partir de / });
  expect(await times.count()).toBeGreaterThanOrEqual(1);
  const chapter = times.last();
  const [, minutes = '0', seconds = '0'] = /(\d+):(\d{2})$/.exec((await chapter.textContent()) ?? '') ?? [];
  const at = Number(minutes) * 60 + Number(seconds);
  await chapter.click();
  await expect(player(page).getByRole('button', { name: 'Revenir au direct' })).toBeVisible();
  await expect.poll(() => audioTime(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(at);
  const from = await audioTime(page);
  await expect.poll(() => audioTime(page), { timeout: 20_000 }).toBeGreaterThan(from + 1);
});
