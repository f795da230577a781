import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import { readApiConfig, type ApiConfig } from '../env';
import type { Env } from '../../settings/config';
import { representationsPlugin } from '../plugins/representations';
import { rateLimitOptions } from '../plugins/security';
import { sourcesPlugin, type SourcesOptions } from '../plugins/sources';
import { eventsPlugin } from '../plugins/events';
import apiRoutes from '../routes/index';
import { readSiteOrigin } from '../../settings/config';
import { declaredPages } from '@collectif/shared/testing';
import { sitePagesPlugin } from '../../site/page-routes';
import { figuresPlugin } from '../../figures/plugin';
import { pushPlugin, type PushPluginOptions } from '../../push/plugin';
import { proposalsPlugin, type ProposalsPluginOptions } from '../../proposals/plugin';
import { DEMO_LIVE_FILES, DEMO_REPLAYS } from '../demo/audio';
import { openApiPlugin } from '../plugins/openapi';

/** Size of a 64 kb/s, 22.05 kHz MPEG-2 layer III frame without padding (as lamejs writes them). */
export const FAKE_FRAME_SIZE = 208;

/** The same at 48 kb/s (the demo's light mount): floor(72 × 48000 / 22050). */
export const FAKE_ECONOME_FRAME_SIZE = 156;

/**
 * An mp3 made of `count` valid frame headers, each followed by its index repeated: enough for
 * the frame parser and the live pacing (no decoder reads it in these tests). At 64 kb/s, or 48.
 */
export function fakeMp3(count: number, kbps: 64 | 48 = 64): Buffer {
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    const frame = Buffer.alloc(kbps === 64 ? FAKE_FRAME_SIZE : FAKE_ECONOME_FRAME_SIZE, i % 256);
    frame.set([0xff, 0xf3, kbps === 64 ? 0x80 : 0x60, 0xc4], 0);
    frames.push(frame);
  }
  return Buffer.concat(frames);
}

const audioDirs = new Map<number, string>();

/**
 * A demo audio folder with fake files: a live loop of `liveFrames` frames in each mount (64 and
 * 48 kb/s) and every replay. Made once per test file and size (nothing writes to it).
 */
export function fakeAudioDir(liveFrames = 100): string {
  const known = audioDirs.get(liveFrames);
  if (known !== undefined) return known;
  const dir = mkdtempSync(join(tmpdir(), 'demo-audio-'));
  audioDirs.set(liveFrames, dir);
  mkdirSync(join(dir, 'replays'));
  writeFileSync(join(dir, DEMO_LIVE_FILES.normale), fakeMp3(liveFrames));
  writeFileSync(join(dir, DEMO_LIVE_FILES.econome), fakeMp3(liveFrames, 48));
  for (const { name } of DEMO_REPLAYS) writeFileSync(join(dir, 'replays', `${name}.mp3`), fakeMp3(400));
  return dir;
}

let emptyDir: string | undefined;

/**
 * The configuration `env` gives (the default: demo everywhere) with test-sized limits; no demo
 * audio, and none generated: a test server that started the generator would leave it encoding MP3s
 * in the background, and on a fresh clone that starved every test running beside it.
 */
export function testConfig(overrides: Partial<ApiConfig> = {}, env: Env = {}): ApiConfig {
  const base = readApiConfig(env);
  emptyDir ??= mkdtempSync(join(tmpdir(), 'demo-audio-'));
  return {
    ...base,
    // Each test server its own content, started from the repository's files.
    contentDir: mkdtempSync(join(tmpdir(), 'contenu-')),
    upstream: { timeoutMs: 400, maxBytes: 64 * 1024 },
    ttlMs: { feed: 60_000, live: 60_000, nowPlaying: 60_000, track: 60_000, schedule: 60_000, events: 60_000 },
    demo: { ...base.demo, audioDir: emptyDir, generateAudio: false },
    // No recorder of the live unless a test asks for one (docs/timeshift.md).
    timeshift: { ...base.timeshift, hours: 0 },
    // No sample of the live each minute: a test samples when it chooses (docs/figures.md).
    figures: { ...base.figures, sampling: false },
    // Nor « Me prévenir »'s looks at the programme and the feed: a test looks when it chooses (docs/push.md).
    push: { ...base.push, watching: false },
    // Nor the archiver's (docs/archive.md), whose folder is the test's own.
    archive: { ...base.archive, watching: false, dir: mkdtempSync(join(tmpdir(), 'archives-')) },
    ssePingMs: 60_000,
    ...overrides,
  };
}

/**
 * The API alone (no site, no helmet or compression), registered as app.ts does, on the test's clock.
 * `siteOrigin`: SITE_ORIGIN's, by default the server's own address as the settings have it.
 */
export async function buildApi(
  options: SourcesOptions,
  {
    log,
    push = {},
    proposals = {},
    siteOrigin = readSiteOrigin({}),
  }: {
    log?: (line: string) => void;
    push?: PushPluginOptions;
    proposals?: ProposalsPluginOptions;
    siteOrigin?: string;
  } = {},
): Promise<FastifyInstance> {
  // As app.ts: long path parameters reach the routes, which answer them in French. `log`: the
  // warnings' lines, for a test that reads what the log says.
  const app = Fastify({
    routerOptions: { maxParamLength: 16_384 },
    ...(log === undefined ? {} : { logger: { level: 'warn', stream: { write: log } } }),
  });
  await app.register(rateLimit, rateLimitOptions);
  // Before every route: the API's description sees them all (docs/api.md, « The description »).
  await app.register(openApiPlugin);
  await app.register(sourcesPlugin, options);
  await app.register(figuresPlugin);
  // The notifications' and the proposals' addresses from the same table (registered below, read at each use).
  await app.register(pushPlugin, { pages: async () => (await app.sitePages()).pages, ...push });
  await app.register(proposalsPlugin, { pages: async () => (await app.sitePages()).pages, ...proposals });
  await app.register(eventsPlugin);
  await app.register(representationsPlugin);
  // The pages as the remotes' modules declare them (the calendar files link to residences' pages).
  const pages = declaredPages();
  await app.register(sitePagesPlugin, { read: () => Promise.resolve({ pages, version: 'déclarées', complete: true }) });
  await app.register(apiRoutes, { prefix: '/api', siteOrigin });
  await app.ready();
  return app;
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${String((app.server.address() as AddressInfo).port)}`;
}

/** A clock the test moves by hand, so TTLs expire without waiting. */
export function manualClock(start = Date.UTC(2026, 2, 4, 18)): { now: () => number; advance(ms: number): void } {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}
