import type { FileHandle } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answeredNotModified } from '../http/conditional';

/**
 * One byte range of a `Range` header (RFC 9110, 14.1.2), as nginx answers the archives' MP3: a
 * single range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) is answered 206; several ranges, another unit,
 * or an `If-Range` that is not the file's ETag are answered whole (null); a range starting past the
 * end is 416 (`unsatisfiable`).
 */
export function byteRange(
  header: string | undefined,
  size: number,
  ifRange?: string,
  etag?: string,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (header === undefined) return null;
  if (ifRange !== undefined && ifRange !== etag) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

const ifRangeOf = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * An opened file sent as nginx sends one: its ETag (its time and size; 304 when sent back), from any
 * origin, and a byte range answered 206 (416 past the end). The handle is closed once sent.
 */
export async function sendOpened(
  request: FastifyRequest,
  reply: FastifyReply,
  handle: FileHandle,
  size: number,
  mtimeMs: number,
  type: string,
  cacheControl: string,
): Promise<FastifyReply> {
  const etag = `"${Math.floor(mtimeMs).toString(16)}-${size.toString(16)}"`;
  reply.header('Access-Control-Allow-Origin', '*').header('Accept-Ranges', 'bytes').type(type);
  if (answeredNotModified(request, reply, { etag, cacheControl })) {
    await handle.close();
    return reply;
  }
  const range = byteRange(request.headers.range, size, ifRangeOf(request.headers['if-range']), etag);
  if (range === 'unsatisfiable') {
    await handle.close();
    return reply
      .code(416)
      .header('Content-Range', `bytes */${String(size)}`)
      .send();
  }
  if (range === null) return reply.header('Content-Length', size).send(handle.createReadStream());
  return reply
    .code(206)
    .header('Content-Range', `bytes ${String(range.start)}-${String(range.end)}/${String(size)}`)
    .header('Content-Length', range.end - range.start + 1)
    .send(handle.createReadStream({ start: range.start, end: range.end }));
}
