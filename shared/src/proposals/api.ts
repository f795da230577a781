import * as v from 'valibot';
import { api } from '@collectif/shared';
import { responseSchema } from '../schemas/response-schema';

/*
 * What « Proposer une émission » and « Envoyer une démo » read of the server (docs/proposals.md,
 * « The API »): a challenge (its `startedAt` goes into the form's hidden field, so that the page
 * rendered by the server posts without JavaScript), and a refused form kept as a draft.
 */

export type ProposalKind = 'emission' | 'demo';

/** GET /api/proposals/challenge: ALTCHA's v1 challenge, and the signed instant the form was made. */
export const challengeSchema = v.object({
  algorithm: v.string(),
  challenge: v.string(),
  maxnumber: v.number(),
  salt: v.string(),
  signature: v.string(),
  startedAt: v.string(),
});
export type ProposalChallenge = v.InferOutput<typeof challengeSchema>;

const text = v.optional(v.string(), '');

/** GET /api/proposals/drafts/:id: a form refused without JavaScript, what was typed and each fault. */
export const draftSchema = v.object({
  kind: v.picklist(['emission', 'demo']),
  values: v.object({
    name: text,
    makers: text,
    style: text,
    links: text,
    when: text,
    email: text,
    message: text,
  }),
  error: v.string(),
  message: v.string(),
  fields: v.optional(v.record(v.string(), v.string()), {}),
});
export type ProposalDraft = v.InferOutput<typeof draftSchema>;

/**
 * Injected by each part that shows a proposal page (radio, label): a page that never shows one never
 * downloads them. The same definitions from both parts, so the second injection changes nothing.
 */
export const proposalsApi = api.injectEndpoints({
  overrideExisting: true,
  endpoints: (build) => ({
    proposalChallenge: build.query<ProposalChallenge, undefined>({
      query: () => ({ url: '/proposals/challenge', cache: 'no-store' }),
      responseSchema: responseSchema(challengeSchema),
      // A challenge is used once: never kept past the page that asked for it.
      keepUnusedDataFor: 0,
    }),
    proposalDraft: build.query<ProposalDraft, string>({
      query: (id) => ({ url: `/proposals/drafts/${encodeURIComponent(id)}`, cache: 'no-store' }),
      responseSchema: responseSchema(draftSchema),
    }),
  }),
});

export const { useProposalChallengeQuery, useProposalDraftQuery } = proposalsApi;
