import type { FastifyInstance } from 'fastify';
import { editorRoutes } from './editor';
import { publicRoutes } from './public';

export { DRAFT_MS, PROPOSAL_BODY_MAX, PROPOSAL_FORM_MAX, PROPOSAL_POSTS_PER_MIN } from './public';
export { kindsSeenBy, PROPOSALS_PAGE } from './editor';

/**
 * « Proposer une émission » and « Envoyer une démo »'s routes (docs/proposals.md, « The API »): the
 * public's (./public.ts, with the form's parser, in this plugin's context only) and the volunteers'
 * in the editor (./editor.ts).
 */
export default function proposalsRoutes(instance: FastifyInstance, _options: unknown, done: () => void): void {
  publicRoutes(instance);
  editorRoutes(instance);
  done();
}
