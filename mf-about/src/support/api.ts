import { api } from '@collectif/shared';
import {
  responseSchema,
  supportAnswer,
  supportReturnAnswer,
  type SupportInfo,
  type SupportPayment,
  type SupportReturnQuery,
} from '@collectif/shared/schemas/support';

/**
 * « Nous soutenir »'s queries, injected into the singleton's API slice by About, the one part that
 * asks for them (docs/contract.md, « 4.0.0 »): a page that never shows the support pages never
 * downloads them. Each answer is read through its schema, as the slice's own.
 */
export const supportApi = api.injectEndpoints({
  endpoints: (build) => ({
    // The membership's tiers, the gifts' bounds, the year's progress (docs/support.md).
    support: build.query<SupportInfo, undefined>({
      query: () => '/support',
      responseSchema: responseSchema(supportAnswer),
    }),
    // The payment HelloAsso sent the visitor back from, read back by the site (never believed from the query).
    supportReturn: build.query<SupportPayment, SupportReturnQuery>({
      query: (params) => ({ url: '/support/retour', params, cache: 'no-store' }),
      responseSchema: responseSchema(supportReturnAnswer),
    }),
  }),
});

export const { useSupportQuery, useSupportReturnQuery } = supportApi;
