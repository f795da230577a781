import type { IncomingMessage } from 'node:http';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { Editor } from '../editors';
import {
  isPicturePurpose,
  PICTURE_PURPOSE_NAMES,
  pictureTooLarge,
  PictureRefused,
  PictureUnwritable,
  type PicturePurpose,
  type PictureRefusal,
} from '../pictures';
import { ApiHttpError } from '../../http/errors';
import { editorLimit } from '../../api/http/editor-limit';
import { JSON_TYPE } from '../../api/plugins/representations';

/**
 * A picture's upload (docs/content.md, « Pictures »): `POST /api/content/pictures?purpose=…`, the
 * file itself as the body (any Content-Type: the bytes say what it is). Any signed-in editor may
 * upload; the picture shows on the site only once a save the editor's rights allow names it. The
 * editor and the purpose are checked before the body is read, so nobody else makes the server
 * read megabytes; every picture stored and every refusal is logged with the account.
 */

type Upload = { Querystring: { purpose?: string }; Body: Buffer | undefined };

const STATUS: Record<PictureRefusal, number> = {
  empty: 400,
  unreadable: 400,
  too_large: 413,
  too_many_pixels: 413,
  format: 415,
};

/** The most a refused upload's rest is read for, before its connection is closed instead. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** When an upload refused for want of a place may be sent again (Retry-After, in seconds). */
const BUSY_RETRY_S = 10;

/** Reads and drops what is left of a request's body (at most DRAIN_MAX_BYTES, for 5 s at most). */
function drained(raw: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (raw.readableEnded || raw.destroyed) {
      resolve();
      return;
    }
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      raw.destroy();
      done();
    }, 5000);
    raw.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_MAX_BYTES) {
        raw.destroy();
        done();
      }
    });
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}

const contentPictures: FastifyPluginCallback = (app, _options, done) => {
  const { limits } = app.pictures;
  /** The editor of each request let through, its purpose, and how it gives its place back. */
  const uploads = new WeakMap<FastifyRequest, { editor: Editor; purpose: PicturePurpose; release?: () => void }>();
  // Per account, across the instances (docs/content.md, « Bounds »).
  const counted = editorLimit(app, {
    name: 'images',
    perMinute: app.apiConfig.limits.editorUploadsPerMinute,
    refusal: 'Trop d’images envoyées',
  });
  /** An upload's place given back, once its answer is sent or its client gone. */
  const release = (request: FastifyRequest) => {
    uploads.get(request)?.release?.();
  };

  // This context reads every body as bytes, whatever it says it is, up to the cap.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limits.maxBytes }, (_request, body, parsed) => {
    parsed(null, body);
  });
  // A body over the cap is cut by Fastify while it is read: said as the other refusals are, once
  // the rest of the body has been read and dropped (up to DRAIN_MAX_BYTES). Answered with the body
  // still arriving, the connection was reset under the proxy's feet, and nginx answered 502 instead
  // of the server's French 413 about one time in two on a busy machine.
  app.setErrorHandler(async (error: Error & { code?: string }, request) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
    await drained(request.raw);
    const sent = uploads.get(request);
    const refused = pictureTooLarge(limits);
    request.log.warn(
      { account: sent?.editor.account, purpose: sent?.purpose, reason: refused.reason },
      'image refusée',
    );
    throw new ApiHttpError(STATUS[refused.reason], refused.reason, refused.message);
  });

  app.post<Upload>(
    '/content/pictures',
    {
      config: { editor: true },
      // After the XSRF check (the /api scope's onRequest), before the body is read.
      preParsing: async (request, reply, payload) => {
        const editor = await app.editorOf(request);
        const purpose = request.query.purpose ?? '';
        if (!isPicturePurpose(purpose)) {
          request.log.warn({ account: editor.account, purpose }, 'image refusée : usage inconnu');
          throw new ApiHttpError(
            400,
            'bad_request',
            `Usage de l’image inconnu : purpose vaut ${PICTURE_PURPOSE_NAMES.join(', ')}.`,
          );
        }
        uploads.set(request, { editor, purpose });
        // Past the account's uploads a minute, or with every place of the instance taken, refused
        // before the body is kept: the rest is read and dropped first, so a proxy gets the answer.
        try {
          await counted(request, reply, editor);
        } catch (error) {
          await drained(request.raw);
          throw error;
        }
        const place = app.pictures.admit();
        if (place === null) {
          await drained(request.raw);
          request.log.warn(
            { account: editor.account, purpose, uploading: app.pictures.uploading },
            'image refusée : trop d’envois en cours',
          );
          reply.header('Retry-After', String(BUSY_RETRY_S));
          throw new ApiHttpError(
            503,
            'busy',
            'Trop d’images sont en cours d’envoi sur le site : réessayez dans quelques secondes.',
          );
        }
        uploads.set(request, { editor, purpose, release: place });
        return payload;
      },
      onResponse: (request, _reply, sent) => {
        release(request);
        sent();
      },
      onRequestAbort: (request, aborted) => {
        release(request);
        aborted();
      },
    },
    async (request, reply) => {
      const sent = uploads.get(request);
      if (sent === undefined) throw new Error('image : envoi sans éditeur');
      const { editor, purpose } = sent;
      const bytes = request.body ?? Buffer.alloc(0);
      try {
        const picture = await app.pictures.store(bytes, purpose);
        request.log.info(
          { account: editor.account, purpose, src: picture.src, bytes: bytes.length },
          'image enregistrée',
        );
        return await reply.code(201).header('Cache-Control', 'no-store').type(JSON_TYPE).send(picture);
      } catch (error) {
        if (error instanceof PictureRefused) {
          request.log.warn({ account: editor.account, purpose, reason: error.reason }, 'image refusée');
          throw new ApiHttpError(STATUS[error.reason], error.reason, error.message);
        }
        if (error instanceof PictureUnwritable) {
          request.log.error({ account: editor.account, purpose, reason: error.reason }, 'image non enregistrée');
          throw new ApiHttpError(
            503,
            'unwritable',
            'L’image ne peut pas être enregistrée pour le moment : réessayez dans un instant.',
          );
        }
        throw error;
      }
    },
  );
  done();
};

export default contentPictures;
