import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import { etagOf, sendConditional } from '../../http/conditional';
import type { Cached } from '../../upstream/cache';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** How an answer is sent: its type, its Cache-Control and, for a cached upstream value, its state. */
export interface RepresentationOptions {
  type?: string;
  cacheControl: string;
  state?: Cached<unknown>['state'];
}

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Sends the body made by `make` for `key`, with its weak ETag, or 304 when the client has it.
     * Body and ETag are made once per key (the key names the data's version and the options).
     */
    representation(key: string, make: () => string, options: RepresentationOptions): FastifyReply;
    /** An answer's body as Fastify serialises it with the route's 200 schema: only the defined fields. */
    serialized(value: object): string;
  }
}

/** A response body ready to send, with its validator. */
interface Representation {
  body: string;
  etag: string;
}

/**
 * Bodies kept at most, and their bytes (strings in memory: two bytes a code unit). A crawler's distinct
 * searches each make a body here (the renderer asks /api for the page it renders): the bytes bound
 * keeps them from the memory (docs/rendering.md, « Memory »).
 */
const MEMO_ENTRIES = 256;
const MEMO_BYTES = 16 * 1024 * 1024;

const X_CACHE = { hit: 'HIT', miss: 'MISS', stale: 'STALE' } as const;

const representations: FastifyPluginCallback = (app, _options, done) => {
  // Bodies derived from a cached value, kept per key (the value's version and the request's
  // options): a warm /api/podcasts?limit=8 costs a lookup, not a filter, a JSON.stringify and a
  // hash. Bounded, least recently used first, since the options come from visitors.
  const memo = new LRUCache<string, Representation>({
    max: MEMO_ENTRIES,
    maxSize: MEMO_BYTES,
    sizeCalculation: ({ body }) => Math.max(1, body.length * 2),
  });
  app.decorateReply(
    'representation',
    function (this: FastifyReply, key: string, make: () => string, options: RepresentationOptions) {
      const { type = JSON_TYPE, cacheControl, state } = options;
      let representation = memo.get(key);
      if (representation === undefined) {
        const body = make();
        representation = { body, etag: etagOf(body) };
        memo.set(key, representation);
      }
      return sendConditional(
        this.request,
        this,
        {
          etag: representation.etag,
          cacheControl,
          ...(state === undefined ? {} : { headers: { 'X-Cache': X_CACHE[state] } }),
        },
        { type, body: representation.body },
      );
    },
  );
  app.decorateReply('serialized', function (this: FastifyReply, value: object) {
    return this.serializeInput(value as Record<string, unknown>, '200') as string;
  });
  done();
};

export const representationsPlugin = fp(representations, { name: 'representations' });
