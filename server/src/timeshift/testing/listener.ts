import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { get as httpsGet } from 'node:https';
import { readFrameHeader } from '../mp3';

/**
 * What a listener of a mount receives: its status and content type, then bytes until `bytes` have
 * arrived or `timeoutMs` has passed (whichever first), then it hangs up. Over https with `caFile`
 * trusted (IcecastServer.tls).
 */
export function listen(
  url: string,
  { bytes, timeoutMs = 10_000, caFile }: { bytes: number; timeoutMs?: number; caFile?: string },
): Promise<{ status: number; contentType: string; data: Buffer }> {
  return new Promise((resolve, reject) => {
    const options = caFile === undefined ? {} : { ca: readFileSync(caFile) };
    const request = (url.startsWith('https:') ? httpsGet : get)(url, options, (response) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const finish = () => {
        clearTimeout(timer);
        request.destroy();
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? '',
          data: Buffer.concat(chunks),
        });
      };
      const timer = setTimeout(finish, timeoutMs);
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
        if (length >= bytes) finish();
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.on('error', reject);
  });
}

/**
 * The MP3 frames in a listener's bytes: from the first place where a header's length leads to
 * another header, every frame chained so, until the bytes stop being frames. A listener joins
 * mid-stream, so what comes before the first such place is skipped.
 */
export function mp3FramesIn(data: Uint8Array): { offset: number; size: number }[] {
  for (let start = 0; start + 4 <= data.length; start += 1) {
    const first = readFrameHeader(data, start);
    if (first === null || readFrameHeader(data, start + first.size) === null) continue;
    const frames: { offset: number; size: number }[] = [];
    let at = start;
    for (let header = readFrameHeader(data, at); header !== null; header = readFrameHeader(data, at)) {
      if (at + header.size > data.length) break;
      frames.push({ offset: at, size: header.size });
      at += header.size;
    }
    return frames;
  }
  return [];
}
