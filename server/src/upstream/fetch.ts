import { UpstreamError, type Service } from '../http/errors';

export interface UpstreamLimits {
  timeoutMs: number;
  maxBytes: number;
}

export interface UpstreamRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** By name, not instanceof: the DOMException may come from another realm (test sandboxes). */
function isTimeout(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted) return true;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'TimeoutError' || name === 'AbortError';
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One upstream HTTP call with a deadline for the whole exchange (headers and body) and a cap on the
 * body size, checked while reading so a huge answer is cut, not buffered. Every failure becomes an
 * UpstreamError; non-2xx statuses are returned for the caller to judge (a 401 may mean a new token).
 */
export async function fetchUpstream(
  service: Service,
  request: UpstreamRequest,
  limits: UpstreamLimits,
): Promise<UpstreamResponse> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: { 'User-Agent': 'collectif-site/1.0', ...request.headers },
      body: request.body,
      signal,
      redirect: 'follow',
    });
  } catch (error) {
    if (isTimeout(error, signal)) throw new UpstreamError(service, 'timeout');
    throw new UpstreamError(service, 'unreachable', reason(error));
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new UpstreamError(service, 'too_large', `${String(declared)} octets annoncés`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    if (response.body !== null) {
      for await (const chunk of response.body) {
        total += chunk.byteLength;
        if (total > limits.maxBytes) {
          await response.body.cancel().catch(() => undefined);
          throw new UpstreamError(service, 'too_large', `plus de ${String(limits.maxBytes)} octets`);
        }
        chunks.push(Buffer.from(chunk));
      }
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    if (isTimeout(error, signal)) throw new UpstreamError(service, 'timeout');
    throw new UpstreamError(service, 'unreachable', reason(error));
  }
  return { status: response.status, headers: response.headers, body: Buffer.concat(chunks, total) };
}

/** Throws an upstream error for a non-2xx status. */
export function ensureOk(service: Service, response: UpstreamResponse): UpstreamResponse {
  if (response.status >= 200 && response.status < 300) return response;
  throw new UpstreamError(service, 'status', `HTTP ${String(response.status)}`, response.status);
}

/** The body as JSON, or an UpstreamError saying it is not. */
export function jsonBody(service: Service, response: UpstreamResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8')) as unknown;
  } catch {
    throw new UpstreamError(service, 'invalid', 'JSON attendu');
  }
}
