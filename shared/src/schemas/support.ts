import * as v from 'valibot';
import { SUPPORT_ADDRESS } from '../supportAddress';
import { usableList } from './usable-list';

// « Nous soutenir »'s answers (docs/support.md), the server's shapes and the client's readings. A
// module of its own, outside the singleton's reach: only About's pages, the editor and the server
// read them (docs/contract.md, « 4.0.0 »).

/** The bounds of a one-off gift through HelloAsso, in cents (docs/support.md). */
export const DONATION_BOUNDS = { min: 100, max: 100_000 } as const;

/** One tier of the year's membership form (GET /api/support): its price in cents. */
export const supportTierSchema = v.object({
  id: v.number(),
  label: v.string(),
  price: v.number(),
  description: v.optional(v.string()),
});

/**
 * GET /api/support (docs/support.md): whether HelloAsso takes the payments, the collective's
 * external page, the membership form's tiers (null while HelloAsso cannot be read), the gifts'
 * bounds, the year's progress (the last good one, stale when HelloAsso is down; null before any)
 * and whether a tax receipt is given.
 */
export const supportSchema = v.object({
  /** False: an admin turned it off, or it is not configured (and not the demo). */
  helloasso: v.boolean(),
  /** The collective's external support page (site.json's links.donation). */
  external: v.string(),
  membership: v.nullable(v.object({ formUrl: v.string(), tiers: v.array(supportTierSchema) })),
  donation: v.object({
    /** Suggested amounts, in cents. */
    suggested: v.array(v.number()),
    min: v.number(),
    max: v.number(),
    /** The donation form's own page: a monthly gift. */
    monthlyUrl: v.string(),
  }),
  progress: v.nullable(
    v.object({
      year: v.number(),
      members: v.number(),
      goal: v.optional(v.number()),
      /** When the figure was read (ISO 8601). */
      at: v.string(),
      stale: v.boolean(),
    }),
  ),
  taxReceipt: v.boolean(),
});

/** POST /api/support/don's body: a one-off gift in cents, for a residence or not. */
export const donationBodySchema = v.object({
  amount: v.number(),
  monthly: v.optional(v.literal(false)),
  residence: v.optional(v.string()),
});

/** POST /api/support/adhesion's body: a tier of the membership form. */
export const membershipBodySchema = v.object({ tier: v.number() });

/** POST /api/support/don and /adhesion: where the visitor goes next (HelloAsso's page). */
export const supportRedirectSchema = v.object({ redirectUrl: v.string() });

/** GET /api/support/retour: the payment as read back from HelloAsso (never from the query). */
export const supportReturnSchema = v.object({
  state: v.picklist(['paid', 'refused', 'unfinished']),
  kind: v.picklist(['don', 'adhesion']),
  /** In cents. */
  amount: v.optional(v.number()),
  /** The residence's id the gift named. */
  residence: v.optional(v.string()),
});

/** GET /api/editor/figures/support: this year's figures for the editor (sums for admins only). */
export const supportFiguresSchema = v.object({
  year: v.number(),
  members: v.nullable(v.number()),
  goal: v.optional(v.number()),
  residences: v.array(
    v.object({
      id: v.string(),
      donations: v.number(),
      /** In cents; admins only. */
      sum: v.optional(v.number()),
    }),
  ),
});

export type SupportAnswer = v.InferOutput<typeof supportSchema>;
export type SupportTier = v.InferOutput<typeof supportTierSchema>;
export type SupportReturn = v.InferOutput<typeof supportReturnSchema>;
export type SupportFigures = v.InferOutput<typeof supportFiguresSchema>;

/** An address the site may send a visitor to: https, or a path of the site (the demo's HelloAsso). */
const supportAddress = v.pipe(v.string(), v.regex(SUPPORT_ADDRESS));
const cents = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * GET /api/support as the client reads it: a tier it cannot show is dropped, a broken membership
 * or progress is none (the page then keeps the external link and says the figures are unavailable).
 */
export const supportAnswer = v.object({
  helloasso: v.fallback(v.boolean(), false),
  external: v.fallback(supportAddress, ''),
  membership: v.fallback(
    v.nullable(
      v.object({
        formUrl: supportAddress,
        tiers: usableList(
          v.object({
            id: v.pipe(v.number(), v.integer()),
            label: v.pipe(v.string(), v.nonEmpty()),
            price: cents,
            description: v.fallback(v.optional(v.string()), undefined),
          }),
        ),
      }),
    ),
    null,
  ),
  donation: v.object({
    suggested: v.fallback(v.array(cents), []),
    min: v.fallback(cents, DONATION_BOUNDS.min),
    max: v.fallback(cents, DONATION_BOUNDS.max),
    monthlyUrl: v.fallback(supportAddress, ''),
  }),
  progress: v.fallback(
    v.nullable(
      v.object({
        year: v.pipe(v.number(), v.integer()),
        members: cents,
        goal: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), undefined),
        at: v.pipe(v.string(), v.isoTimestamp()),
        stale: v.fallback(v.boolean(), true),
      }),
    ),
    null,
  ),
  taxReceipt: v.fallback(v.boolean(), false),
});

/** POST /api/support/don and /adhesion as the client reads them: somewhere the visitor may go. */
export const supportRedirectAnswer = v.object({ redirectUrl: supportAddress });

/** GET /api/support/retour as the client reads it. */
export const supportReturnAnswer = v.object({
  state: v.picklist(['paid', 'refused', 'unfinished']),
  kind: v.picklist(['don', 'adhesion']),
  amount: v.fallback(v.optional(cents), undefined),
  residence: v.fallback(v.optional(v.string()), undefined),
});

/** GET /api/editor/figures/support as the client reads it: a row it cannot show is dropped. */
export const supportFiguresAnswer = v.object({
  year: v.pipe(v.number(), v.integer()),
  members: v.fallback(v.nullable(cents), null),
  goal: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), undefined),
  residences: usableList(
    v.object({ id: v.pipe(v.string(), v.nonEmpty()), donations: cents, sum: v.fallback(v.optional(cents), undefined) }),
  ),
});

/** « Nous soutenir » as the site offers it (GET /api/support), as the client read it. */
export type SupportInfo = v.InferOutput<typeof supportAnswer>;

/** A payment as the site read it back from HelloAsso (GET /api/support/retour). */
export type SupportPayment = v.InferOutput<typeof supportReturnAnswer>;

/** What HelloAsso adds to the return page's address, passed on as it is: the site reads the payment back. */
export interface SupportReturnQuery {
  checkoutIntentId?: string;
  code?: string;
  orderId?: string;
  error?: string;
}

export { responseSchema } from './response-schema';
