import { UpstreamError, type Service } from '../http/errors';
import { ensureOk, fetchUpstream, type UpstreamLimits } from '../upstream/fetch';
import { bomEncoding, headerCharset } from '../upstream/feed-text';
import { scheduleWorker } from './schedule-worker';

/**
 * A calendar's bytes as text (docs/schedule.md, « Reading the calendars »): the byte order mark's
 * encoding, else the Content-Type's charset, else UTF-8; bytes that are not UTF-8 where UTF-8 was
 * assumed are read as Windows-1252 (what older calendar software writes), never as replacement
 * characters. A charset the platform does not know is an error.
 */
export function icsText(body: Buffer, contentType: string | null, service: Service = 'schedule'): string {
  const declared = bomEncoding(body) ?? headerCharset(contentType);
  try {
    if (declared !== undefined) return new TextDecoder(declared).decode(body).replace(/^\uFEFF/, '');
  } catch {
    throw new UpstreamError(service, 'invalid', `encodage inconnu « ${declared} »`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(body);
  }
}

/**
 * Fetches every calendar of an upstream (SCHEDULE_ICS_URLS for the schedule, EVENTS_ICS_URLS for
 * the events, each under its own name); one that fails fails the whole (its last good copy is
 * served). Each is checked (readCalendar) by the schedule's thread: reading 8 MiB takes a few
 * tenths of a second, which the event loop does not wait (docs/schedule.md, « Off the event loop »).
 */
export function calendarLoader(
  service: Service,
  urls: readonly string[],
  limits: UpstreamLimits,
  check: (text: string) => Promise<void> = (text) => scheduleWorker().check(text),
): () => Promise<string[]> {
  return () =>
    Promise.all(
      urls.map(async (url) => {
        const response = ensureOk(service, await fetchUpstream(service, { url }, limits));
        const text = icsText(response.body, response.headers.get('content-type'), service);
        try {
          await check(text);
        } catch (error) {
          throw new UpstreamError(service, 'invalid', error instanceof Error ? error.message : String(error));
        }
        return text;
      }),
    );
}
