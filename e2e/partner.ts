import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A partner's site: a real server on another loopback port, so that its pages are another origin
 * than the collective's. Not a routed fake host: Chromium forbids a page of the public address
 * space from loading anything from loopback, which a real partner on the internet, loading from the
 * collective's public server, never runs into.
 */
export interface PartnerSite {
  origin: string;
  close(): Promise<void>;
}

export async function startPartnerSite(handler: RequestListener): Promise<PartnerSite> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
