import { get, type IncomingMessage } from 'node:http';

/** A Server-Sent Events client over real HTTP that collects the `nowplaying` events. */
export interface EventReader {
  response: IncomingMessage;
  events: unknown[];
  /** Each event's id, in the same order (empty string: none). */
  ids: string[];
  /** Resolves once `count` events have arrived. */
  until(count: number): Promise<unknown[]>;
  close(): void;
}

export function readEvents(url: string, headers: Record<string, string> = {}): Promise<EventReader> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const events: unknown[] = [];
      const ids: string[] = [];
      const waiters: { count: number; done: (events: unknown[]) => void }[] = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const data = lines.find((line) => line.startsWith('data: '));
          if (lines.includes('event: nowplaying') && data !== undefined) {
            events.push(JSON.parse(data.slice(6)));
            ids.push(lines.find((line) => line.startsWith('id: '))?.slice(4) ?? '');
          }
          end = buffer.indexOf('\n\n');
        }
        for (const waiter of waiters.filter((w) => events.length >= w.count)) waiter.done(events);
      });
      resolve({
        response,
        events,
        ids,
        until: (count) =>
          new Promise((done) => {
            if (events.length >= count) done(events);
            else waiters.push({ count, done });
          }),
        close: () => {
          request.destroy();
        },
      });
    });
    request.on('error', reject);
  });
}

/** The status, headers and first bytes of an endless response, then hangs up. */
export function firstBytes(
  url: string,
  count: number,
  method = 'GET',
): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { method }, (response) => {
      const chunks: Buffer[] = [];
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        request.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).length >= count) finish();
      });
      response.on('end', finish);
    });
    request.on('error', (error) => {
      reject(error);
    });
  });
}
