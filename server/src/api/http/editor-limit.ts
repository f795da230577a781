import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Editor } from '../../content/editors';
import { ApiHttpError } from '../../http/errors';

/**
 * A limit per editor account (docs/content.md, « Bounds »): at most `perMinute` requests of one kind
 * (saves, previews, uploads) a minute for each account, whatever address they come from. Counted
 * in the rate limits' store (@fastify/rate-limit: Redis with REDIS_URL, so every instance counts
 * the same minute; in the process without it); while Redis is away, not enforced (as the other
 * limits: logged by the shared state, fail open).
 */
export interface EditorLimitOptions {
  /** The counter's name, in its key and the log (ecritures, apercus, images). */
  name: string;
  perMinute: number;
  /** What is limited, in French, as the refusal says it (« Trop d’enregistrements »). */
  refusal: string;
}

/** Counts a request of `editor`'s; answers 429 with Retry-After past the limit. */
export type EditorLimit = (request: FastifyRequest, reply: FastifyReply, editor: Editor) => Promise<void>;

export function editorLimit(app: FastifyInstance, { name, perMinute, refusal }: EditorLimitOptions): EditorLimit {
  /** The account of each request counted (the limiter's key generator is given the request alone). */
  const accounts = new WeakMap<FastifyRequest, string>();
  const counted = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `editeur:${name}:${accounts.get(request) ?? ''}`,
  });
  return async (request, reply, editor) => {
    accounts.set(request, editor.account);
    const count = await counted(request);
    if (count.isAllowed || !count.isExceeded) return;
    const seconds = Math.max(1, count.ttlInSeconds);
    request.log.warn({ account: editor.account, limit: name, perMinute }, 'éditeur : limite par minute atteinte');
    reply.header('Retry-After', String(seconds));
    throw new ApiHttpError(
      429,
      'rate_limited',
      `${refusal} pour ce compte en une minute : réessayez dans ${String(seconds)} s.`,
    );
  };
}
