import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pagesJson } from '@collectif/shared/testing';
import { buildApp } from '../../app/app';
import { fakeAudioDir, testConfig } from '../../api/testing/fixtures';
import { startFakeUpstream } from '../../api/testing/fake-upstream';
import { readSiteServerConfig } from '../../settings/config';
import { documentJson } from '../../site/render/fixtures';
import { calendarOf } from '../../schedule/test-calendars';
import type { ArchiveMode } from '../config';
import { writeWindow } from './window';

const MIN = 60_000;
const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export interface ArchiveSites {
  /** Axonberg's slot, ended a minute ago (five minutes), and 158cm's, twenty minutes before it; La Brume's is on air. */
  slots: { start: number; end: number; otherStart: number };
  /** A site (the real app, built as app.ts builds it) on this programme, the live recorded from before the first slot to now. */
  site(
    mode: ArchiveMode,
    options?: { demo?: boolean; adminToken?: string },
  ): Promise<{ app: FastifyInstance; archives: string }>;
  close(): Promise<void>;
}

/**
 * The live archives' test sites (docs/archive.md): a programme read from a calendar served on the
 * loopback, and a timeline's folder holding the live's frames as the recorder writes them, its
 * stream nowhere (the recorder connects to nothing).
 */
export async function startArchiveSites(): Promise<ArchiveSites> {
  const folders: string[] = [];
  const folder = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };
  const write = (root: string, path: string, content: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  const end = Math.floor(Date.now() / MIN) * MIN - MIN;
  const start = end - 5 * MIN;
  const otherStart = start - 20 * MIN;
  const upstream = await startFakeUpstream();
  upstream.on('/radio.ics', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(
      calendarOf(
        ['UID:synapses@test', `DTSTART:${stamp(start)}`, `DTEND:${stamp(end)}`, 'SUMMARY:Axonberg · Synapses'],
        [
          'UID:158@test',
          `DTSTART:${stamp(otherStart)}`,
          `DTEND:${stamp(otherStart + 5 * MIN)}`,
          'SUMMARY:158cm · Gros son',
        ],
        // On air now: it ends after the test's servers start.
        ['UID:brume@test', `DTSTART:${stamp(end)}`, `DTEND:${stamp(end + 60 * MIN)}`, 'SUMMARY:La Brume · Ambiances'],
      ),
    );
  });

  async function site(mode: ArchiveMode, { demo = false, adminToken }: { demo?: boolean; adminToken?: string } = {}) {
    const dist = folder('site-');
    write(dist, 'shell/dist/document.json', documentJson());
    write(dist, 'shell/dist/main.0123456789.js', 'console.log("shell");');
    for (const part of ['mf-player', 'mf-radio', 'mf-label', 'mf-about'])
      write(dist, `${part}/dist/mf-manifest.json`, '{}');
    for (const part of ['mf-radio', 'mf-label', 'mf-about']) write(dist, `${part}/dist/pages.json`, pagesJson(part));
    const timeline = folder('direct-');
    const archives = folder('archives-');
    const base = testConfig(adminToken === undefined ? {} : { adminToken }, {
      SCHEDULE_ICS_URLS: `${upstream.url}/radio.ics`,
      LIVE_ARCHIVE: mode,
    });
    const config = {
      ...base,
      timeshift: { hours: 4, dir: timeline, segmentSeconds: 10 },
      archive: { ...base.archive, dir: archives, demo },
      radio: {
        ...base.radio,
        renditions: base.radio.renditions.map((r) => ({ ...r, url: 'http://127.0.0.1:9/flux' })),
      },
    };
    writeWindow(join(timeline, config.radio.renditions[0]?.id ?? ''), [
      { from: otherStart - 10 * MIN, to: Date.now() },
    ]);
    const app = await buildApp({
      site: readSiteServerConfig({ DIST_ROOT: dist, ASSETS_DIR: join(dist, 'assets') }),
      api: { ...config, demo: { ...config.demo, audioDir: fakeAudioDir(200) } },
    });
    return { app, archives };
  }

  return {
    slots: { start, end, otherStart },
    site,
    close: async () => {
      await upstream.close();
      for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    },
  };
}
