import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, readSiteServerConfig, readTrustProxy, type Env } from '../settings/config';
import { testConfig } from '../api/testing/fixtures';

// The site parts are not built for these tests: an empty folder stands for their dist/.
const distRoot = mkdtempSync(join(tmpdir(), 'proxy-site-'));
afterAll(() => {
  rmSync(distRoot, { recursive: true, force: true });
});

const TRACK = '/api/track/soundcloud:tracks:1';
const EVENTS = '/api/nowplaying/events';

/** The whole app on a loopback port: 2 track lookups a minute and 2 open channels per client. */
async function startApp(env: Env): Promise<{ app: FastifyInstance; url: string }> {
  const site = readSiteServerConfig({ DIST_ROOT: distRoot, ...env });
  const api = testConfig();
  api.limits = { ...api.limits, trackPerMinute: 2, sseConnectionsPerClient: 2 };
  const app = await buildApp({ site, api });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${String((app.server.address() as AddressInfo).port)}` };
}

interface Call {
  status: number;
  /** Hangs up (an open event stream stays open until then). */
  close(): void;
}

/** One request over real HTTP from a chosen loopback address; resolves on the status line. */
function call(url: string, options: { from?: string; forwardedFor?: string } = {}): Promise<Call> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream, application/json' };
    if (options.forwardedFor !== undefined) headers['x-forwarded-for'] = options.forwardedFor;
    const req: ClientRequest = httpRequest(url, { headers, localAddress: options.from ?? '127.0.0.1' }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A reverse proxy as nginx is configured in the README: it appends the peer's address. */
async function startProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const peer = req.socket.remoteAddress ?? '';
    const previous = req.headers['x-forwarded-for'];
    const forwarded = previous === undefined ? peer : `${String(previous)}, ${peer}`;
    const upstream = httpRequest(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

describe('the client address (TRUST_PROXY)', () => {
  it('trusts no proxy by default: forged X-Forwarded-For headers do not dodge the limits', async () => {
    const { app, url } = await startApp({});
    const open: Call[] = [];
    try {
      const tracks = [];
      for (let i = 1; i <= 3; i += 1)
        tracks.push((await call(`${url}${TRACK}`, { forwardedFor: `203.0.113.${String(i)}` })).status);
      expect(tracks).toEqual([404, 404, 429]);
      for (let i = 1; i <= 3; i += 1)
        open.push(await call(`${url}${EVENTS}`, { forwardedFor: `198.51.100.${String(i)}` }));
      expect(open.map((c) => c.status)).toEqual([200, 200, 429]);
    } finally {
      for (const c of open) c.close();
      await app.close();
    }
  });

  it('with TRUST_PROXY=1 behind a proxy, tells two clients apart and still ignores what they forge', async () => {
    const { app, url } = await startApp({ TRUST_PROXY: '1' });
    const proxy = await startProxy(url);
    const open: Call[] = [];
    try {
      const first = [];
      for (let i = 1; i <= 3; i += 1) first.push((await call(`${proxy.url}${TRACK}`, { from: '127.0.0.1' })).status);
      expect(first).toEqual([404, 404, 429]);
      // Another visitor behind the same proxy has its own allowance, forged header or not.
      const second = [];
      for (let i = 1; i <= 3; i += 1) {
        second.push(
          (await call(`${proxy.url}${TRACK}`, { from: '127.0.0.2', forwardedFor: `203.0.113.${String(i)}` })).status,
        );
      }
      expect(second).toEqual([404, 404, 429]);
      for (const from of ['127.0.0.1', '127.0.0.2']) {
        for (let i = 1; i <= 3; i += 1)
          open.push(await call(`${proxy.url}${EVENTS}`, { from, forwardedFor: `198.51.100.${String(i)}` }));
      }
      expect(open.map((c) => c.status)).toEqual([200, 200, 429, 200, 200, 429]);
    } finally {
      for (const c of open) c.close();
      await proxy.close();
      await app.close();
    }
  });

  it('reads a hop count, addresses and ranges, or true/false', () => {
    expect(readTrustProxy({})).toBe(false);
    expect(readTrustProxy({ TRUST_PROXY: 'false' })).toBe(false);
    expect(readTrustProxy({ TRUST_PROXY: '0' })).toBe(false);
    expect(readTrustProxy({ TRUST_PROXY: 'true' })).toBe(true);
    expect(readTrustProxy({ TRUST_PROXY: '2' })).toBe(2);
    expect(readTrustProxy({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' })).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(readTrustProxy({ TRUST_PROXY: '192.168.0.0/255.255.0.0' })).toEqual(['192.168.0.0/255.255.0.0']);
  });

  it.each(['oui', '10.0.0.0/33', '300.1.1.1', '127.0.0.1,,10.0.0.1', '21', 'nginx'])(
    'stops at start-up on TRUST_PROXY=%s with a message naming the variable',
    (value) => {
      expect(() => readSiteServerConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => readSiteServerConfig({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY : /);
    },
  );
});
