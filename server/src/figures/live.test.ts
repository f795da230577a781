import { get, type ClientRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { azuracastListeners, mapListeners } from '../upstream/azuracast';
import { json, startFakeUpstream, type FakeUpstream } from '../api/testing/fake-upstream';
import { startIcecast, type IcecastServer } from '../timeshift/testing/icecast';
import { startSource, type IcecastSource } from '../timeshift/testing/icecast-source';
import { createFigures, TIMELINE_PER_ADDRESS, VISITORS_PER_ADDRESS_DAY } from './figures';
import { parisDay } from './paris';
import { figuresFiles } from './files';
import { icecastListeners, mapIcecastListeners } from './sources';
import { memoryTally } from './tally';

// The live's listeners sampled from the radio's own counts (docs/figures.md, « What is counted »):
// AzuraCast's `listeners` from a fake on loopback, a real Icecast's statistics with real
// listeners; the recorder left out; a hostile answer gives no count rather than a wrong one.

const LIMITS = { timeoutMs: 2000, maxBytes: 64 * 1024 };
const T0 = Date.UTC(2026, 10, 25, 19);

/** The figures of a radio with these live sources (none by default), at `now`, in memory and a folder of their own. */
function figuresAt(now: number, sources: Parameters<typeof createFigures>[0]['sources'] = {}) {
  const clock = () => now;
  return createFigures({
    tally: memoryTally(clock),
    files: figuresFiles(mkdtempSync(join(tmpdir(), 'chiffres-'))),
    clock,
    sources,
    onAir: () => Promise.resolve(null),
    episodeExists: () => Promise.resolve(true),
    showListeners: () => true,
  });
}

describe('the live’s sample', () => {
  /** Figures whose live source says `count`, on a clock the test moves, sampling every `sampleMs` if said. */
  function sampled(count: number, sampleMs?: number) {
    const at = { now: T0 };
    const clock = () => at.now;
    const figures = createFigures({
      tally: memoryTally(clock),
      files: figuresFiles(mkdtempSync(join(tmpdir(), 'chiffres-'))),
      clock,
      sources: { icecast: () => Promise.resolve(count) },
      onAir: () => Promise.resolve(null),
      episodeExists: () => Promise.resolve(true),
      showListeners: () => true,
      ...(sampleMs === undefined ? {} : { sampleMs }),
    });
    return { at, figures };
  }

  it('is taken once a minute by default, and « N à l’écoute » is kept 150 s after it', async () => {
    const { at, figures } = sampled(12);
    expect(await figures.sample()).toMatchObject({ total: 12 });
    at.now += 30_000;
    // The same minute: another sample would count it twice in the hour's average.
    expect(await figures.sample()).toBeNull();
    at.now = T0 + 60_000;
    expect(await figures.sample()).toMatchObject({ total: 12 });
    at.now += 150_000 - 1;
    expect(await figures.liveListeners()).toBe(12);
    at.now += 1;
    expect(await figures.liveListeners()).toBeUndefined();
  });

  it('follows FIGURES_SAMPLE_SECONDS: once a period, and kept two periods and a half', async () => {
    const { at, figures } = sampled(9, 5000);
    expect(await figures.sample()).toMatchObject({ total: 9 });
    at.now += 4999;
    expect(await figures.sample()).toBeNull();
    at.now += 1;
    expect(await figures.sample()).toMatchObject({ total: 9 });
    at.now += 12_500 - 1;
    expect(await figures.liveListeners()).toBe(9);
    at.now += 1;
    expect(await figures.liveListeners()).toBeUndefined();
  });
});

describe('AzuraCast’s listeners', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream();
  });
  afterAll(() => fake.close());

  it('are sampled with the timeline’s listeners, the recorder left out', async () => {
    fake.on('/api/nowplaying/radio', json(200, { listeners: { current: 42, total: 50, unique: 40 }, now_playing: {} }));
    const read = azuracastListeners({ url: `${fake.url}/api/nowplaying/radio` }, LIMITS);
    expect(await read()).toBe(42);
    const figures = figuresAt(T0, { azuracast: read });
    await figures.timeline({ address: '203.0.113.1', userAgent: 'hls.js', objects: false });
    expect(await figures.sample()).toMatchObject({ total: 43, sources: { azuracast: 42, timeline: 1, player: 0 } });
    expect(await figures.liveListeners()).toBe(43);
  });

  it('count one address’s listeners up to a household’s, whatever its browsers say', async () => {
    const figures = figuresAt(T0);
    // One address changing its user agent each time, and one /64 changing its address each time.
    for (let one = 0; one < 60; one += 1) {
      await figures.timeline({ address: '203.0.113.7', userAgent: `Faux/${String(one)}`, objects: false });
      await figures.timeline({ address: `2001:db8:1:2::${one.toString(16)}`, userAgent: 'hls.js', objects: false });
    }
    expect((await figures.sample())?.sources.timeline).toBe(2 * TIMELINE_PER_ADDRESS);
  });

  it('take an IPv6 network for one address: a /64 brings no more visitors in a day than one address', async () => {
    const figures = figuresAt(T0);
    for (let one = 0; one < 300; one += 1) {
      await figures.beacon(
        { address: `2001:db8:7:7::${one.toString(16)}`, userAgent: `V6/${String(one)}`, objects: false },
        { kind: 'live' },
      );
    }
    expect((await figures.day(parisDay(T0))).visitors).toBe(VISITORS_PER_ADDRESS_DAY);
  });

  it('give no count when the answer holds a hostile one', () => {
    expect(mapListeners([{ listeners: { current: 7 } }])).toBe(7);
    expect(mapListeners({ listeners: { current: -3, total: 12 } })).toBe(12);
    expect(mapListeners({ listeners: { current: '12' } })).toBeUndefined();
    expect(mapListeners({ listeners: { current: 1e12 } })).toBeUndefined();
    expect(mapListeners({ listeners: { current: 2.5 } })).toBeUndefined();
    expect(mapListeners('<html>')).toBeUndefined();
  });
});

describe('Icecast’s statistics', () => {
  it('count the radio’s mounts, less the recorder’s connection to each', () => {
    const stats = {
      icestats: {
        source: [
          { listenurl: 'http://radio.example:8000/normale.mp3', listeners: 12 },
          { listenurl: 'http://radio.example:8000/econome.mp3', listeners: 3 },
          { listenurl: 'http://radio.example:8000/autre.mp3', listeners: 100 },
          { listenurl: 'http://radio.example:8000/faux.mp3', listeners: -4 },
        ],
      },
    };
    const mounts = ['/normale.mp3', '/econome.mp3'];
    expect(mapIcecastListeners(stats, { mounts, recorded: false })).toBe(15);
    expect(mapIcecastListeners(stats, { mounts, recorded: true })).toBe(13);
    expect(mapIcecastListeners(stats, { mounts: ['/ailleurs.mp3'], recorded: false })).toBe(115);
    expect(
      mapIcecastListeners({ icestats: { source: { listenurl: 'x', listeners: 'deux' } } }, { mounts, recorded: false }),
    ).toBeUndefined();
    expect(mapIcecastListeners({ icestats: {} }, { mounts, recorded: false })).toBeUndefined();
    const xml =
      '<icestats><listeners>9</listeners><source mount="/normale.mp3"><listeners>4</listeners></source>' +
      '<source mount="/econome.mp3"><listeners>beaucoup</listeners></source></icestats>';
    expect(mapIcecastListeners(xml, { mounts, recorded: true })).toBe(3);
    // XML as XML: a comment says nothing, attributes may come in any order or quotes, a broken
    // document counts nobody.
    const commented =
      "<icestats><source type='audio' mount='/normale.mp3'><!-- <listeners>999</listeners> -->" +
      '<listeners>4</listeners></source><source mount="/econome.mp3"><listeners>2</listeners></source></icestats>';
    expect(mapIcecastListeners(commented, { mounts, recorded: false })).toBe(6);
    expect(
      mapIcecastListeners('<icestats><source mount="/normale.mp3"><listeners>4', { mounts, recorded: false }),
    ).toBe(undefined);
  });

  describe('of a real Icecast', () => {
    let icecast: IcecastServer;
    let source: IcecastSource;
    const listeners: ClientRequest[] = [];
    beforeAll(async () => {
      icecast = await startIcecast();
      source = await startSource(icecast, '/normale.mp3');
    }, 30_000);
    afterAll(async () => {
      for (const listener of listeners) listener.destroy();
      await source.stop();
      await icecast.stop();
    });

    it('give its listeners, the recorder left out', async () => {
      // Its admin statistics: Debian's Icecast 2.4.4 writes broken JSON at /status-json.xsl.
      const read = (recorded: boolean) =>
        icecastListeners({ url: `${icecast.origin}/admin/stats`, adminPassword: icecast.sourcePassword }, LIMITS, {
          mounts: ['/normale.mp3'],
          recorded,
        });
      // Icecast's statistics follow its clients a moment later: waited for by state.
      const until = async (recorded: boolean, expected: number) => {
        let counted = await read(recorded)();
        for (let tries = 0; counted !== expected && tries < 100; tries += 1) {
          await delay(100);
          counted = await read(recorded)();
        }
        return counted;
      };
      expect(await until(false, 0)).toBe(0);
      for (let one = 0; one < 3; one += 1) {
        await new Promise<void>((resolve) => {
          const request = get(icecast.url('/normale.mp3'), (response) => {
            response.resume();
            resolve();
          });
          listeners.push(request);
        });
      }
      expect(await until(false, 3)).toBe(3);
      expect(await read(true)()).toBe(2);
    }, 30_000);
  });
});
