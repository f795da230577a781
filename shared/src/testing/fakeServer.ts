import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake server received, its body read. */
export interface FakeRequest {
  method: string;
  /** As sent: path and query string. */
  url: string;
  /** The path alone, decoded: what routes are matched on. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The request itself, for what a route needs beyond the above (cutting its socket). */
  raw: IncomingMessage;
}

/** Answers one path; it may answer later (a slow upstream) or never (a silent one). */
export type FakeRoute = (request: FakeRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeServerOptions {
  /** Routes by decoded path; tests may change them later through `routes`. */
  routes?: Record<string, FakeRoute>;
  /** Answers a path no route matches (default: 404 with a JSON body naming the path). */
  fallback?: FakeRoute;
  /** Headers of every answer (the site's API sends CORS headers). */
  headers?: Record<string, string>;
  /** Called with every request before it is answered: a layer records it in its own terms. */
  onRequest?: (request: FakeRequest) => void;
}

/**
 * A real HTTP server on 127.0.0.1, port chosen by the system, that tests point code at instead of
 * replacing modules: each package's fake API (the site's /api, an upstream service) is a small
 * layer over this one.
 */
export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request so far, in order. */
  requests: FakeRequest[];
  routes: Map<string, FakeRoute>;
  on(path: string, route: FakeRoute): void;
  /** How many requests asked for this decoded path. */
  count(path: string): number;
  close(): Promise<void>;
}

const notFound: FakeRoute = ({ path }, response) => {
  response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ error: 'not_found', message: `Introuvable : ${path}` }));
};

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const routes = new Map(Object.entries(options.routes ?? {}));
  const fallback = options.fallback ?? notFound;
  const requests: FakeRequest[] = [];
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const url = raw.url ?? '/';
      const request: FakeRequest = {
        method: raw.method ?? 'GET',
        url,
        path: decodeURIComponent(url.split('?')[0] ?? '/'),
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        raw,
      };
      requests.push(request);
      options.onRequest?.(request);
      for (const [name, value] of Object.entries(options.headers ?? {})) response.setHeader(name, value);
      void (routes.get(request.path) ?? fallback)(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    requests,
    routes,
    on: (path, route) => routes.set(path, route),
    count: (path) => requests.filter((request) => request.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** An origin where nothing listens (a port just released): a service that is down. */
export async function closedOrigin(): Promise<string> {
  const server = await startFakeServer();
  await server.close();
  return server.origin;
}

/** Answers JSON. */
export const json =
  (body: unknown, status = 200): FakeRoute =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };

/** Answers text of a type. */
export const text =
  (body: string, status = 200, type = 'text/plain; charset=utf-8'): FakeRoute =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': type });
    response.end(body);
  };

/** Never answers (until the server closes): a service past any timeout. */
export const silent: FakeRoute = () => undefined;

/** Cuts the connection without an answer: a network error for the client. */
export const cut: FakeRoute = ({ raw }) => {
  raw.socket.destroy();
};
