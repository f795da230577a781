import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configureApiBase, type PodcastItem, type Release } from '@collectif/shared';

/** An answer of the fake /api: a JSON body with a status, or a connection that is cut. */
export type FakeAnswer = { status?: number; body: unknown } | 'network-error';

/** A handler may answer later (a slow upstream), by returning a promise. */
export type FakeHandler = (url: URL) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeApi {
  /** Every request path with its query string, in order. */
  requests: string[];
  /** Replaces the handler of a path ('/islive', '/podcasts', …). */
  set: (path: string, handler: FakeHandler) => void;
  close: () => Promise<void>;
}

/**
 * A real HTTP server on loopback standing in for /api, and RTK Query pointed at it: components are
 * tested through the network like in the browser, with no module of ours replaced.
 */
export async function startFakeApi(handlers: Record<string, FakeHandler> = {}): Promise<FakeApi> {
  const routes = new Map(Object.entries(handlers));
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/api/, '');
    requests.push(`${path}${url.search}`);
    const handler = routes.get(path);
    void Promise.resolve(
      handler ? handler(url) : { status: 404, body: { error: 'not_found', message: 'Adresse inconnue.' } },
    ).then((answer) => {
      if (answer === 'network-error') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status ?? 200, {
        'content-type': 'application/json; charset=utf-8',
        'access-control-allow-origin': '*',
      });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  configureApiBase(`http://127.0.0.1:${String(port)}/api`);
  return {
    requests,
    set: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export function podcast(n: number, title = `Artiste ${String(n)}`, description = `Émission ${String(n)}`): PodcastItem {
  return {
    trackUrn: `soundcloud:tracks:${String(1000 + n)}`,
    url: `/api/demo/replays/show-${String(n)}.mp3`,
    duration: 3600 + n,
    title,
    description,
    cover: `/assets/images/covers/show-${String(n)}.webp`,
    link: `https://soundcloud.com/example/show-${String(n)}`,
    pubDate: new Date(Date.UTC(2024, 0, 30 - n)).toUTCString(),
  };
}

export function release(n: number): Release {
  return {
    href: `/album/sortie-${String(n)}`,
    image: `/assets/images/releases/sortie-${String(n)}.webp`,
    title: `Sortie ${String(n)}`,
    artist: n % 2 === 0 ? 'Various Artists' : `Artiste ${String(n)}`,
  };
}
