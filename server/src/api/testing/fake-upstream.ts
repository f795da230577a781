import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFakeServer, type FakeRequest } from '@collectif/shared/testing';

export interface RecordedRequest {
  method: string;
  /** As sent, with the query string. */
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void;

/**
 * The shared loopback server playing an upstream service (SoundCloud, Twitch, AzuraCast): tests
 * set a handler per path and read back what the adapters asked.
 */
export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  on(path: string, handler: FakeHandler): void;
  count(path: string): number;
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const record = ({ method, url, headers, body }: FakeRequest): RecordedRequest => {
    const recorded = { method, path: url, headers, body };
    requests.push(recorded);
    return recorded;
  };
  const server = await startFakeServer({
    fallback: (request, response) => {
      record(request);
      response.writeHead(404).end('not found');
    },
  });
  return {
    url: server.origin,
    requests,
    on: (path, handler) => {
      server.on(path, (request, response) => {
        handler(record(request), response);
      });
    },
    count: (path) => server.count(path),
    close: () => server.close(),
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
