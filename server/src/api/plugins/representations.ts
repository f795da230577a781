import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import { RepresentationMemo, sendRepresentation } from '../http/reply';
import type { Cached } from '../upstream/cache';

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

const representations: FastifyPluginCallback = (app, _options, done) => {
  const memo = new RepresentationMemo();
  app.decorateReply(
    'representation',
    function (this: FastifyReply, key: string, make: () => string, options: RepresentationOptions) {
      const { type = JSON_TYPE, cacheControl, state } = options;
      return sendRepresentation(this.request, this, memo.get(key, make), {
        type,
        cacheControl,
        ...(state === undefined ? {} : { state }),
      });
    },
  );
  app.decorateReply('serialized', function (this: FastifyReply, value: object) {
    return this.serializeInput(value as Record<string, unknown>, '200') as string;
  });
  done();
};

export const representationsPlugin = fp(representations, { name: 'representations' });
