import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { audienceFiguresAnswer, FEW, type AudienceFigures } from '@collectif/shared/schemas';
import { buildApi, listen, manualClock, testConfig } from '../api/testing/fixtures';
import { editorClient } from '../api/testing/editors';

// The audience figures through the API (docs/figures.md): the player's beacons counted by show, once
// a day per visitor, nothing under 5 sent as a number, a resident's own residence only, the month
// as CSV, the visitor's objection honoured, a flood from one address bounded, and on disk nothing
// but counts; past midnight in Paris, the same visitor counts again.

const TOKEN = 'jeton-admin-des-chiffres-du-test';
// 20:00 in Paris, a Wednesday.
const T0 = Date.UTC(2026, 10, 25, 19);
const clock = manualClock(T0);
let app: FastifyInstance;
let base = '';
let contentDir = '';
const client = editorClient(() => ({ app, base }), TOKEN);

beforeAll(async () => {
  const config = testConfig({ adminToken: TOKEN });
  contentDir = config.contentDir;
  app = await buildApi({ config, now: clock.now });
  base = await listen(app);
});
afterAll(() => app.close());

/** Episodes of a residence, from the demo's feed. */
async function episodesOf(residence: string): Promise<string[]> {
  const catalogue = (await app.sources.episodes.get()).value;
  return catalogue.episodes.filter((episode) => episode.residences.includes(residence)).map((episode) => episode.slug);
}

let visitors = 0;
/** A beacon from a visitor of its own (an address and a browser), or from `from`. */
function beacon(body: unknown, from: { address?: string; agent?: string; headers?: Record<string, string> } = {}) {
  visitors += 1;
  return app.inject({
    method: 'POST',
    url: '/api/figures/beacon',
    remoteAddress: from.address ?? `198.51.100.${String(visitors % 250)}`,
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': from.agent ?? `Navigateur/${String(visitors)}`,
      ...from.headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function audience(query = '', as?: object): Promise<{ status: number; body: unknown }> {
  const answer = await client.send(`/editor/figures/audience${query}`, as === undefined ? {} : { as });
  return { status: answer.status, body: await answer.json() };
}

/** Every number a report holds: none may be under 5. */
function numbers(value: unknown, path = ''): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, at) => numbers(item, `${path}[${String(at)}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => numbers(item, `${path}.${key}`));
  }
  return [];
}

describe('the beacons', () => {
  it('counts replays by show, once per visitor, and says « few » under 5', async () => {
    const [played = '', other = ''] = await episodesOf('axonberg');
    for (let one = 0; one < 6; one += 1) {
      const agent = `Lecteur-A/${String(one)}`;
      const address = `203.0.113.${String(one + 1)}`;
      expect((await beacon({ kind: 'replay', episode: played, second: 0 }, { address, agent })).statusCode).toBe(204);
      // The same visitor again: counted once.
      await beacon({ kind: 'replay', episode: played, second: 0 }, { address, agent });
      await beacon({ kind: 'progress', episode: played, percent: 25 }, { address, agent });
      await beacon({ kind: 'replay', episode: played, second: 125 }, { address, agent });
    }
    for (let one = 0; one < 3; one += 1) {
      await beacon({ kind: 'replay', episode: other, second: 0, embed: true });
    }
    const { status, body } = await audience('?residence=axonberg');
    expect(status).toBe(200);
    const report = v.parse(audienceFiguresAnswer, body);
    const row = report.episodes.find((episode) => episode.episode === played);
    expect(row).toMatchObject({ plays: 6, embedPlays: FEW, reached: { p25: 6, p50: FEW } });
    expect(report.episodes.find((episode) => episode.episode === other)).toMatchObject({ plays: FEW, embedPlays: FEW });
    expect(report.moments).toContainEqual({ episode: played, second: 120, plays: 6 });
    expect(report.trend).toHaveLength(12);
    expect(report.trend.at(-1)).toMatchObject({ plays: 9 });
    // Under the threshold, no number leaves the server.
    expect(numbers(body).filter(([path, value]) => value < 5 && !path.endsWith('.second'))).toEqual([]);
  });

  it('counts nothing for a visitor who objects (Sec-GPC) nor for an episode that does not exist', async () => {
    const before = await app.figures.day('2026-11-25');
    const [played = ''] = await episodesOf('la-brume');
    await beacon({ kind: 'replay', episode: played, second: 0 }, { headers: { 'sec-gpc': '1' } });
    await beacon({ kind: 'replay', episode: 'episode-invente-123', second: 0 });
    const after = await app.figures.day('2026-11-25');
    expect(after[`play:${played}`]).toBe(before[`play:${played}`]);
    expect(Object.keys(after).some((name) => name.includes('episode-invente'))).toBe(false);
  });

  it('refuses a forged body in French, and bounds a flood from one address', async () => {
    const refused = await beacon({ kind: 'replay', episode: '../../etc', second: -1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'bad_beacon', message: 'Signal d’écoute invalide : il est ignoré.' });
    expect((await beacon('x'.repeat(600))).statusCode).toBe(413);
    expect((await beacon({ kind: 'live', extra: 'champ' })).statusCode).toBe(400);

    const before = (await app.figures.day('2026-11-25')).visitors ?? 0;
    const statuses: number[] = [];
    for (let one = 0; one < 80; one += 1) {
      // One address pretending to be 80 browsers.
      statuses.push(
        (await beacon({ kind: 'live' }, { address: '192.0.2.66', agent: `Faux/${String(one)}` })).statusCode,
      );
    }
    expect(statuses.filter((status) => status === 204)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    const after = (await app.figures.day('2026-11-25')).visitors ?? 0;
    expect(after - before).toBeLessThanOrEqual(30);

    // On disk, counts by name and nothing else: no address, no browser, no hash.
    await app.figures.flush();
    const folder = join(contentDir, 'audience', '2026');
    const text = readdirSync(folder)
      .map((file) => readFileSync(join(folder, file), 'utf8'))
      .join('\n');
    expect(text).not.toMatch(/192\.0\.2|203\.0\.113|Faux|Lecteur|Navigateur/);
    const { fields } = JSON.parse(readFileSync(join(folder, '2026-11-25.json'), 'utf8')) as {
      fields: Record<string, unknown>;
    };
    for (const [name, value] of Object.entries(fields)) {
      expect(name).toMatch(
        /^(visitors|listeners:(site|embed)|plays:\d+|(play|embed):[a-z0-9-]+|reach:[a-z0-9-]+:\d+|moment:[a-z0-9-]+:\d+|show:[a-z0-9-]+:listeners|live:[a-z]+:\d+:(peak|sum|n)|slot:[a-z0-9-]+:\d+|slotsrc:[a-z0-9-]+:[a-z]+)$/,
      );
      expect(typeof value).toBe('number');
    }
  });

  it('takes the timeline’s count from nginx’s mirror only: a request from elsewhere is refused', async () => {
    const outside = await app.inject({ url: '/api/figures/timeline', remoteAddress: '198.51.100.9' });
    expect(outside.statusCode).toBe(403);
    const mirror = await app.inject({ url: '/api/figures/timeline', remoteAddress: '127.0.0.1' });
    expect(mirror.statusCode).toBe(204);
  });

  it('counts the same visitor again past midnight in Paris', async () => {
    const visitor = { address: '203.0.113.200', agent: 'Fidèle/1' };
    await beacon({ kind: 'live' }, visitor);
    const today = (await app.figures.day('2026-11-25')).visitors ?? 0;
    await beacon({ kind: 'live' }, visitor);
    expect((await app.figures.day('2026-11-25')).visitors).toBe(today);
    await app.figures.flush();
    // 00:01 on the 26th in Paris.
    clock.advance(Date.UTC(2026, 10, 25, 23, 1) - clock.now());
    await app.figures.flush();
    expect((await beacon({ kind: 'live' }, visitor)).statusCode).toBe(204);
    expect((await app.figures.day('2026-11-26')).visitors).toBe(1);
    // Yesterday's figures are still there.
    expect((await app.figures.day('2026-11-25')).visitors).toBe(today);
  });
});

describe('the editor’s figures', () => {
  it('gives a resident their own residence, and refuses another one (403)', async () => {
    const resident = await client.volunteer('residence', 'mona', 'axonberg');
    const own = await audience('', resident);
    expect(own.status).toBe(200);
    expect((own.body as AudienceFigures).residence).toBe('axonberg');
    expect((await audience('?residence=axonberg', resident)).status).toBe(200);
    const other = await audience('?residence=la-brume', resident);
    expect(other).toEqual({
      status: 403,
      body: { error: 'forbidden', message: 'Ces chiffres ne sont pas ceux de votre résidence.' },
    });
    const label = await client.volunteer('label', 'lou');
    expect((await audience('', label)).status).toBe(403);
    expect((await audience('', {})).status).toBe(401);
  });

  it('gives the admins the whole radio, every residence and each day', async () => {
    const { status, body } = await audience();
    expect(status).toBe(200);
    const report = v.parse(audienceFiguresAnswer, body);
    expect(report.residence).toBeNull();
    expect(report.days).toHaveLength(28);
    expect(report.residences?.find((row) => row.id === 'axonberg')).toMatchObject({ plays: 9 });
  });

  it('exports a month as CSV, figures under 5 written « moins de 5 »', async () => {
    const answer = await client.send('/editor/figures/audience.csv?month=2026-11&residence=axonberg');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="chiffres-axonberg-2026-11.csv"');
    const lines = (await answer.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'jour;résidence;pic du direct;moyenne du direct;écoutes en replay;écoutes depuis les lecteurs intégrés;écoutes à 25 %;à 50 %;à 75 %;à 100 %',
    );
    expect(
      lines
        .find((line) => line.startsWith('2026-11-25;'))
        ?.split(';')
        .slice(2),
    ).toEqual(['moins de 5', 'moins de 5', '6', 'moins de 5', '6', 'moins de 5', 'moins de 5', 'moins de 5']);
    expect((await client.send('/editor/figures/audience.csv?month=2026-13')).status).toBe(400);
  });
});

describe('« N à l’écoute » on the live channel', () => {
  /** The channel's first message. */
  async function firstMessage(): Promise<Record<string, unknown>> {
    const controller = new AbortController();
    const answer = await fetch(`${base}/api/nowplaying/events`, { signal: controller.signal });
    const reader = answer.body?.getReader();
    let text = '';
    while (!/\ndata: .*\n/.test(text)) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    controller.abort();
    return JSON.parse(/\ndata: (.*)\n/.exec(text)?.[1] ?? '{}') as Record<string, unknown>;
  }

  it('is absent until an admin turns it on, then carries the live’s listeners from 5 up', async () => {
    for (let one = 0; one < 7; one += 1) await beacon({ kind: 'live' }, { address: `192.0.2.${String(one + 10)}` });
    // Seven listeners now, and the one of the test before (present for three minutes).
    const total = (await app.figures.sample())?.total;
    expect(total).toBe(8);
    expect(await firstMessage()).not.toHaveProperty('listeners');
    expect(await (await fetch(`${base}/api/nowplaying`)).json()).not.toHaveProperty('listeners');
    // Only an admin may turn it on: a resident is refused.
    const resident = await client.volunteer('residence', 'sam', 'la-brume');
    const refused = await client.send('/content/figures', {
      method: 'PUT',
      as: resident,
      body: { data: { showListeners: true } },
    });
    expect(refused.status).toBe(403);
    const saved = await client.send('/content/figures', { method: 'PUT', body: { data: { showListeners: true } } });
    expect(saved.status).toBe(200);
    expect(await firstMessage()).toMatchObject({ listeners: total });
    // The now-playing's own answer says the same, so that a reading of it hides nothing.
    expect(await (await fetch(`${base}/api/nowplaying`)).json()).toMatchObject({ listeners: total });
  });
});
