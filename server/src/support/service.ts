import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SupportAnswer } from '@collectif/shared/schemas';
import { SUPPORT_PAGE } from '@collectif/shared/config';
import { sealer, type Sealer } from '../instances/seal';
import { UpstreamCache } from '../upstream/cache';
import { createCountsStore, monthKey, type CountsStore } from './counts';
import { DEMO_ACCOUNT, injectTransport } from './demo';
import {
  authorizedAmount,
  createHelloAssoClient,
  networkTransport,
  type HelloAssoClient,
  type FormInfo,
  type HelloAssoOrder,
} from './helloasso';

/** The return page of a payment (mf-about's), HelloAsso's query appended. */
export const RETURN_PAGE = `${SUPPORT_PAGE}/merci`;
/** How long the forms and the year's count are kept before HelloAsso is asked again. */
export const SUPPORT_TTL_MS = 10 * 60_000;
/** Intents (and membership choices) one address may ask a minute (docs/support.md, « Bounds »). */
export const SUPPORT_INTENTS_PER_MIN = 5;
/** Notifications one address may send a minute, and the largest body (docs/support.md). */
export const NOTIFICATIONS_PER_MIN = 120;
/** Return pages one address may check a minute: each asks HelloAsso. */
export const RETURNS_PER_MIN = 30;
export const NOTIFICATION_MAX_BYTES = 64 * 1024;
/** The suggested gifts, in cents. */
export const SUGGESTED = [1000, 2000, 5000];
/** The cookie that tells the return page which intent this browser made (sealed with SITE_SECRET). */
export const DONOR_COOKIE = 'collectif_don';

export const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

/** The year in Paris and its first instant. */
export function yearOf(at: number): { year: number; start: string } {
  const year = Number(monthKey(at).slice(0, 4));
  return { year, start: `${String(year)}-01-01T00:00:00+01:00` };
}

/** What « Nous soutenir »'s routes share: HelloAsso's client, its caches, the counts, the seals. */
export interface SupportService {
  /** No HelloAsso settings: the demo's HelloAsso answers. */
  demo: boolean;
  client: HelloAssoClient;
  counts: CountsStore;
  seals: Sealer;
  /** The forms, read from HelloAsso at most every SUPPORT_TTL_MS. */
  forms: UpstreamCache<{ membership: FormInfo; donationUrl: string }>;
  /** Where HelloAsso sends the visitor back: the site's own pages (a path for the demo's). */
  origin: string;
  residences: () => { id: string; artist?: string }[];
  /** The year's members (and the goal), the last good figure with `stale`, or null. */
  progressNow: (goal?: number) => Promise<SupportAnswer['progress']>;
  /** What an order of ours is: a gift, a membership, or none of ours (another form, another organisation). */
  kindOf: (order: HelloAssoOrder) => 'don' | 'adhesion' | null;
  /** Counts an order read back from HelloAsso (again: its authorized amount), or takes it back. */
  count: (order: HelloAssoOrder, kind: 'don' | 'adhesion', residence?: string) => Promise<boolean>;
}

/** The service, made once when the routes are registered (docs/support.md). */
export function supportService(app: FastifyInstance, siteOrigin: string | undefined): SupportService {
  const config = app.apiConfig;
  const now = app.clock;
  const account = config.support.helloasso;
  const demo = account === null;
  const shared = app.shared?.cache ?? null;
  const client: HelloAssoClient = createHelloAssoClient({
    account: account ?? DEMO_ACCOUNT,
    transport: demo ? injectTransport(app) : networkTransport(config.upstream),
    now,
    // The demo's token is this process's own.
    shared: demo ? null : shared,
  });
  const counts: CountsStore = createCountsStore({
    file: join(config.contentDir, 'support-counts.json'),
    shared,
    now,
  });
  const sharedAs = (key: string) => (demo || shared === null ? {} : { shared: { store: shared, key } });
  const forms = new UpstreamCache(
    'helloasso',
    async () => {
      const [membership, donation] = await Promise.all([client.form('membership'), client.form('donation')]);
      return { membership, donationUrl: donation.url };
    },
    { ttlMs: SUPPORT_TTL_MS, now, metrics: app.metrics.site, ...sharedAs('helloasso:forms') },
  );
  const members = new UpstreamCache(
    'helloasso',
    async () => {
      const { year, start } = yearOf(now());
      const count = await client.countMembers(start, new Date(now()).toISOString());
      return { year, members: count, at: new Date(now()).toISOString() };
    },
    { ttlMs: SUPPORT_TTL_MS, now, metrics: app.metrics.site, ...sharedAs('helloasso:members') },
  );
  const residences = () => app.content.current('residences').data as { id: string; artist?: string }[];

  const kindOf = (order: HelloAssoOrder): 'don' | 'adhesion' | null => {
    const ours = client.account;
    if (order.organizationSlug !== ours.organization) return null;
    if (order.formType === 'Checkout') return 'don';
    if (order.formType === 'Membership' && order.formSlug === ours.membershipForm) return 'adhesion';
    if (order.formType === 'Donation' && order.formSlug === ours.donationForm) return 'don';
    return null;
  };
  const monthOfOrder = (order: HelloAssoOrder) => {
    const at = order.date === undefined ? Number.NaN : Date.parse(order.date);
    return monthKey(Number.isFinite(at) ? at : now());
  };
  return {
    demo,
    client,
    counts,
    seals: sealer(config.siteSecret),
    forms,
    origin: demo ? '' : (siteOrigin ?? ''),
    residences,
    progressNow: async (goal) => {
      try {
        const read = await members.get();
        return { ...read.value, ...(goal === undefined ? {} : { goal }), stale: read.state === 'stale' };
      } catch {
        return null;
      }
    },
    kindOf,
    count: async (order, kind, residence) => {
      const amount = authorizedAmount(order);
      const known = residence !== undefined && residences().some((entry) => entry.id === residence);
      return counts.record(
        order.id,
        amount > 0
          ? { month: monthOfOrder(order), kind, amount, ...(known && kind === 'don' ? { residence } : {}) }
          : null,
      );
    },
  };
}
