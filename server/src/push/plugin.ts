import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import webpush from 'web-push';
import { PAGES, pageHref, type AddressedPage, type PageModule } from '@collectif/shared/addresses';
import { siteConfig } from '@collectif/shared/config';
import { residencePictures } from '@collectif/shared/pictures';
import { writeWhole } from '../files/whole';
import { holdLease, type HeldLease } from '../instances/lease';
import { residenceSlots } from '../schedule/slots';
import { createDelivery, type Delivery } from './deliver';
import { topicOf, type PushMessage } from './message';
import { checkSubscription, extraHostsOf, type ExtraHosts } from './endpoint';
import { PUSH_RECORD_MAX, createPushStore, type PushStore } from './subscriptions';
import { createWatch, type Told } from './watch';

declare module 'fastify' {
  interface FastifyInstance {
    /** « Me prévenir » (docs/push.md). */
    push: PushService;
  }
}

export interface PushService {
  /** The VAPID public key browsers subscribe with; null: « Me prévenir » is off. */
  publicKey: string | null;
  store: PushStore;
  /** Push services allowed beside the browsers' own (PUSH_SERVICES). */
  extraHosts: ExtraHosts;
  /** Whether this instance is the one that sends (holds the lease). */
  sending(): boolean;
  /** Sends what is due now (the watch's look, at once): for tests and the benchmark. */
  check(): Promise<void>;
  /** Counts the subscriptions again, for the gauge (after a save or a removal). */
  recount(): void;
}

/** The sender's lease (one instance sends), as the recorder's: 15 s, tried or renewed every 5 s. */
export const SENDER_LEASE = 'push:sender';
const LEASE_MS = 15_000;
const LEASE_CHECK_MS = 5_000;
/** « En direct » is useless once the show is well under way; a new episode keeps two days. */
export const LIVE_TTL_S = 15 * 60;
export const REPLAY_TTL_S = 2 * 24 * 3600;
/** The file the sending instance writes from Redis, at most this often (the backup of the subscriptions). */
const BACKUP_EVERY_MS = 60_000;

const vapidFileSchema = v.object({
  publicKey: v.pipe(v.string(), v.regex(/^[\w-]{87}$/)),
  privateKey: v.pipe(v.string(), v.regex(/^[\w-]{43}$/)),
});

/**
 * The demo's own VAPID pair (docs/push.md, « Keys »): made once and kept in CONTENT_DIR
 * (`push-vapid.json`, readable by the server's user only), so that subscriptions outlive a restart.
 */
async function demoKeys(contentDir: string): Promise<{ publicKey: string; privateKey: string }> {
  const file = join(contentDir, 'push-vapid.json');
  try {
    const read = v.safeParse(vapidFileSchema, JSON.parse(readFileSync(file, 'utf8')));
    if (read.success) return read.output;
  } catch {
    // Absent or unreadable: a new pair.
  }
  const keys = webpush.generateVAPIDKeys();
  await mkdir(contentDir, { recursive: true });
  await writeWhole(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  return keys;
}

/** A text cut to `max` characters, an ellipsis last when cut. */
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

interface ResidenceText {
  id: string;
  artist?: string;
  show?: string;
  portrait?: string;
}

/**
 * A page's address from the site's page table, with its query (docs/push.md, « The message »): the
 * site's root with the query when the table has no such page (its part is not deployed), never a
 * path typed here.
 */
function addressOf(
  table: readonly AddressedPage[],
  page: PageModule,
  params: Readonly<Record<string, string>> = {},
  search: Readonly<Record<string, string>> = {},
): string {
  const query = new URLSearchParams(search).toString();
  return pageHref(table, page, params, search) ?? `/${query === '' ? '' : `?${query}`}`;
}

/**
 * The message of a show's start or a new episode, as the service worker reads it (docs/push.md,
 * « The message »); its address from `table`, the site's page table.
 */
export function messageOf(
  told: Told,
  residence: ResidenceText,
  table: readonly AddressedPage[],
  episodeShow?: string,
): PushMessage {
  const artist = cut(residence.artist ?? residence.id, 80);
  const icon = residencePictures(residence).card;
  if (told.kind === 'live') {
    return {
      payload: JSON.stringify({
        v: 1,
        kind: 'live',
        title: cut(`${artist} est en direct`, 120),
        body: cut(`${residence.show ?? artist}, en ce moment sur ${siteConfig.name}`, 240),
        url: addressOf(table, PAGES.home, {}, { ecouter: 'direct' }),
        icon,
        tag: `direct-${residence.id}`,
      }),
      ttl: LIVE_TTL_S,
      topic: topicOf('live', residence.id),
      urgency: 'high',
    };
  }
  return {
    payload: JSON.stringify({
      v: 1,
      kind: 'replay',
      title: cut(`Nouvelle émission : ${episodeShow ?? residence.show ?? artist}`, 120),
      body: artist,
      url: addressOf(table, PAGES.episode, { slug: told.slug }),
      icon,
      tag: `emission-${residence.id}`,
    }),
    ttl: REPLAY_TTL_S,
    topic: topicOf('replay', residence.id),
    urgency: 'normal',
  };
}

export interface PushPluginOptions {
  /** An extra CA the sender trusts (tests: the fake push service's); production uses the system's. */
  ca?: string;
  /** The site's page table (`app.sitePages`), read at each message: the addresses follow the pages. */
  pages?: () => Promise<readonly AddressedPage[]>;
}

/**
 * « Me prévenir » (docs/push.md): decorates `push`, the subscriptions' store and the VAPID public
 * key; once the server listens, the instance that holds the sender's lease watches the programme and
 * the feed and sends.
 */
export const pushPlugin = fp(
  async (app: FastifyInstance, options: PushPluginOptions) => {
    const config = app.apiConfig.push;
    const { contentDir } = app.apiConfig;
    const warn = (message: string) => {
      app.log.warn(message);
    };
    const vapid =
      config.vapid ??
      (config.demo
        ? {
            ...(await demoKeys(contentDir)),
            // The demo is reached by nobody: a contact that says so.
            subject: 'mailto:demo@collectif.invalid',
          }
        : null);
    if (vapid === null) {
      warn('PUSH_VAPID_* absents : « Me prévenir » est désactivé (docs/push.md, « Keys »)');
    }
    const extraHosts = extraHostsOf(config.extraHosts);
    const store = createPushStore({
      file: join(contentDir, 'push.json'),
      shared: app.shared?.push ?? null,
      budget: { bytes: config.storeBytes, recordMax: PUSH_RECORD_MAX },
      keptMs: config.keptDays * 24 * 3600_000,
      now: app.clock,
      secret: app.apiConfig.siteSecret,
      acceptable: (record) => checkSubscription(record, extraHosts).ok,
      log: { warn },
    });
    let subscriptions = await store.count().catch(() => 0);
    const unwatch = app.metrics.push.subscriptions.watch(() => [{ value: subscriptions }]);
    const unwatchSending = app.metrics.push.sending.watch(() => [{ value: lease?.held() === true ? 1 : 0 }]);
    const residences = () => app.content.current('residences').data as ResidenceText[];
    /** The page table, or none when it cannot be read (each address then falls back to the root). */
    const table = async (): Promise<readonly AddressedPage[]> => {
      if (options.pages === undefined) return [];
      try {
        return await options.pages();
      } catch {
        return [];
      }
    };
    let delivery: Delivery | null = null;
    let lease: HeldLease | null = null;
    let backupTimer: NodeJS.Timeout | null = null;

    const tell = async (told: Told): Promise<void> => {
      const residence = residences().find((entry) => entry.id === told.residence);
      if (residence === undefined || delivery === null) return;
      const targets = await store.followers(told.residence, told.kind);
      if (targets.length === 0) return;
      const title = told.kind === 'replay' ? (await app.sources.episodes.get()).value.find(told.slug)?.show : undefined;
      const report = await delivery.send(targets, messageOf(told, residence, await table(), title));
      const counter = app.metrics.push.notifications;
      counter.inc({ kind: told.kind, outcome: 'sent' }, report.sent);
      counter.inc({ kind: told.kind, outcome: 'gone' }, report.gone.length);
      counter.inc({ kind: told.kind, outcome: 'failed' }, report.failed);
      app.log.info(
        {
          kind: told.kind,
          residence: told.residence,
          sent: report.sent,
          gone: report.gone.length,
          failed: report.failed,
        },
        'notifications envoyées',
      );
    };

    /** The live archive a feed item is the same show as (docs/archive.md), if any. */
    const sameAsOf = (link: string) => {
      const archive = app.sources.archivedAs(link);
      return archive === undefined ? {} : { sameAs: archive };
    };
    const watch = createWatch({
      now: app.clock,
      slots: (from, to) => residenceSlots(app, from, to),
      liveOn: async () => (await app.sources.nowPlaying.get()).state !== 'stale',
      episodes: async () =>
        (await app.sources.episodes.get()).value.episodes.map((episode) => ({
          slug: episode.slug,
          residences: episode.residences,
          publishedAt: episode.pubDate === null ? null : Date.parse(episode.pubDate) || null,
          ...sameAsOf(episode.link),
        })),
      marks: store,
      tell,
      log: { warn },
      looked: () => {
        app.metrics.push.looks.inc();
      },
    });

    app.decorate('push', {
      publicKey: vapid?.publicKey ?? null,
      store,
      extraHosts,
      sending: () => lease?.held() ?? false,
      check: () => watch.check(),
      recount: () => {
        void store.count().then(
          (count) => {
            subscriptions = count;
          },
          () => undefined,
        );
      },
    } satisfies PushService);

    app.addHook('onListen', async () => {
      if (vapid === null) return;
      delivery = createDelivery({
        vapid,
        extraHosts: config.extraHosts,
        onGone: async (id) => {
          await store.forget([id]);
        },
        log: { warn },
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      });
      if (!config.watching) return;
      lease = await holdLease({
        leases: app.shared?.leases ?? null,
        name: SENDER_LEASE,
        ms: LEASE_MS,
        checkMs: LEASE_CHECK_MS,
        take: async () => {
          watch.start();
          backupTimer = setInterval(() => {
            // The subscriptions past their time go first (docs/push.md, « Bounds »), then the backup.
            void store
              .sweep()
              .catch(() => 0)
              .then(() => store.backup());
            app.push.recount();
          }, BACKUP_EVERY_MS);
          backupTimer.unref();
          await Promise.resolve();
        },
        lose: async () => {
          watch.stop();
          if (backupTimer !== null) clearInterval(backupTimer);
          backupTimer = null;
          await Promise.resolve();
        },
        warn: (what, why) => {
          warn(
            what === 'lost'
              ? 'notifications : bail perdu, une autre instance envoie'
              : `notifications : bail non renouvelé (${why ?? ''}), envoi poursuivi`,
          );
        },
      });
    });
    app.addHook('onClose', async () => {
      unwatch();
      unwatchSending();
      await lease?.close();
      await delivery?.close();
      await store.close();
    });
  },
  { name: 'push', dependencies: ['sources'] },
);
