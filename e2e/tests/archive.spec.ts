import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { audioTime } from '../audio';
import { expect, gotoPage, test } from '../fixtures';
import { player } from '../screen';
import { startTimeshiftSite, type TimeshiftSite } from '../timeshift-site';

// « Réécouter le direct » in a real Chromium (docs/archive.md): a site whose programme (a calendar on
// the loopback) has a slot of Axonberg of 20 s, starting 25 s after the server's clock does (e2e/
// server-clock.mjs: its recorder's first segment comes 8 to 14 s after the spawn); when it ends, its
// archive appears as an episode, and its page plays it in the persistent player from one of its
// chapters (the tracks the demo's radio played during the slot). Its server mostly waits: the spec
// runs beside another (docs/testing.md, « The run's time »).

/** On a whole minute, as the archive's id (to the minute) is its start's: 20:00 in Paris. */
const SLOT_START = Date.parse('2026-11-24T19:00:00.000Z');
const SLOT_MS = 20_000;
const LEAD_MS = 25_000;
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
let site: TimeshiftSite;
let origin = '';
let folder = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
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
          `DTSTART:${stamp(SLOT_START)}`,
          `DTEND:${stamp(SLOT_START + SLOT_MS)}`,
          'SUMMARY:Axonberg · Synapses',
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
      );
  });
  await new Promise<void>((resolve) => calendar.listen(0, '127.0.0.1', resolve));
  folder = mkdtempSync(join(tmpdir(), 'archives-du-direct-'));
  site = await startTimeshiftSite(new Date(SLOT_START - LEAD_MS).toISOString(), {
    LIVE_ARCHIVE_DIR: folder,
    LIVE_ARCHIVE: 'all',
    SCHEDULE_ICS_URLS: `http://127.0.0.1:${String((calendar.address() as AddressInfo).port)}/radio.ics`,
  });
  origin = site.origin;
});

test.afterAll(async () => {
  await site.stop();
  await new Promise((resolve) => calendar.close(resolve));
  rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
});

test('a live show kept when its slot ends plays from a chapter in the persistent player', async ({ page }) => {
  test.setTimeout(240_000);
  const id = archiveId(SLOT_START);
  // The lead, the slot, two segments of settling, and the archiver's look every 30 s.
  await expect
    .poll(async () => (await fetch(`${origin}/api/episodes/${id}`).catch(() => null))?.status ?? 0, {
      timeout: LEAD_MS + SLOT_MS + 120_000,
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
