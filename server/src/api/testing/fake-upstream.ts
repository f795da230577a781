import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void;

/**
 * A real HTTP server on loopback playing an upstream service (SoundCloud, Twitch, AzuraCast):
 * tests set a handler per path and read back what the adapters asked.
 */
export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  on(path: string, handler: FakeHandler): void;
  count(path: string): number;
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const handlers = new Map<string, FakeHandler>();
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
      const recorded = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const handler = handlers.get(path);
      if (handler === undefined) {
        res.writeHead(404).end('not found');
        return;
      }
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    on: (path, handler) => handlers.set(path, handler),
    count: (path) => requests.filter((r) => decodeURIComponent(r.path.split('?')[0] ?? '') === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Answers JSON. */
export function json(status: number, body: unknown): FakeHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
}

/** Answers text with a content type. */
export function text(status: number, body: string, type = 'application/rss+xml; charset=utf-8'): FakeHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': type }).end(body);
  };
}

/** Never answers (until the test closes the server): an upstream past any timeout. */
export const silent: FakeHandler = () => undefined;
