import fp from 'fastify-plugin';
import type { FastifyPluginCallback } from 'fastify';
import { ApiHttpError, ERROR_CODES, upstreamErrorReply, type UpstreamError } from '../../http/errors';
import { sendError } from '../http/reply';
import { validationMessage } from '../http/validation';

/** The fields of a thrown value this handler reads; ours say what they are by `code`. */
interface Thrown {
  code?: unknown;
  statusCode?: unknown;
  validation?: Parameters<typeof validationMessage>[0];
  validationContext?: unknown;
}

/** The answer for a thrown value, or undefined for a fault of ours (answered 500 and logged). */
function answerFor(error: unknown): ApiHttpError | undefined {
  const thrown: Thrown = typeof error === 'object' && error !== null ? error : {};
  switch (thrown.code) {
    case ERROR_CODES.api:
      return error as ApiHttpError;
    case ERROR_CODES.upstream:
      return upstreamErrorReply(error as UpstreamError);
    case 'FST_ERR_VALIDATION': {
      const context = typeof thrown.validationContext === 'string' ? thrown.validationContext : 'requête';
      return new ApiHttpError(400, 'bad_request', validationMessage(thrown.validation ?? [], context));
    }
  }
  // Fastify and its plugins refuse a malformed request (bad JSON, wrong type, body too large) with their own status.
  if (typeof thrown.statusCode === 'number' && thrown.statusCode >= 400 && thrown.statusCode < 500) {
    return new ApiHttpError(thrown.statusCode, 'bad_request', 'Requête invalide.');
  }
  return undefined;
}

/** Every /api failure answers `{ error, message }` in French with `no-store` (docs/api.md, « Errors »). */
const errors: FastifyPluginCallback = (app, _options, done) => {
  app.setErrorHandler((error: unknown, request, reply) => {
    const answer = answerFor(error);
    if (answer !== undefined) return sendError(reply, answer);
    request.log.error(error);
    return sendError(reply, new ApiHttpError(500, 'internal', 'Erreur interne du serveur. Réessayez plus tard.'));
  });
  done();
};

export const errorsPlugin = fp(errors, { name: 'errors' });
