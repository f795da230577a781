import * as v from 'valibot';
import {
  apiErrorSchema,
  chaptersSchema,
  episodeDetailSchema,
  episodesPageSchema,
  eventItemSchema,
  eventsSchema,
  stylesSchema,
  liveStatusSchema,
  nowPlayingSchema,
  podcastItemSchema,
  radioSettingsAnswerSchema,
  timeshiftAnswerSchema,
  releaseSchema,
  scheduleSchema,
  playedArtistSchema,
  playedArtistsPageSchema,
  DONATION_BOUNDS,
  supportFiguresSchema,
  supportRedirectSchema,
  supportReturnSchema,
  supportSchema,
} from '@collectif/shared/schemas';
import { FOLLOW_MAX } from '@collectif/shared/follow';
import { jsonSchema } from './provider';
import { PUSH_RESIDENCES_MAX } from '../../push/subscriptions';
import { ENDPOINT_MAX } from '../../push/endpoint';

/** `?limit=`: how many items, newest first. */
const limit = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500)));
/** `?coming=`, `?past=`: how many at most, none included. */
const count = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(500)));

/**
 * The bodies of « Nous soutenir »'s requests (docs/support.md, « Bad input »), each refusal in the
 * French the page shows beside its field: read by `frenchInput` (http/validation.ts) as the routes'
 * validator, and described as their `body` below.
 */
export const supportBodies = {
  donation: v.strictObject(
    {
      amount: v.pipe(
        v.number('Le montant doit être un nombre de centimes (par exemple 1500 pour 15 €).'),
        v.integer('Le montant se donne en centimes entiers (par exemple 1550 pour 15,50 €).'),
        v.minValue(DONATION_BOUNDS.min, `Le don est d’au moins ${String(DONATION_BOUNDS.min / 100)} €.`),
        v.maxValue(DONATION_BOUNDS.max, `Le don est d’au plus ${String(DONATION_BOUNDS.max / 100)} € par paiement.`),
      ),
      monthly: v.optional(v.literal(false, 'Un don mensuel se fait sur le formulaire de dons de HelloAsso.')),
      residence: v.optional(
        v.pipe(v.string('Résidence inconnue.'), v.regex(/^[a-z0-9-]{1,60}$/, 'Résidence inconnue.')),
      ),
    },
    'Champ inconnu dans la demande de don.',
  ),
  membership: v.strictObject(
    { tier: v.pipe(v.number('Tarif inconnu.'), v.integer('Tarif inconnu.'), v.minValue(1, 'Tarif inconnu.')) },
    'Champ inconnu dans la demande d’adhésion.',
  ),
};

const idText = v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number));
const positiveId = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
/** A HelloAsso notification: only what names its order is read; the rest is not believed. */
const helloAssoNotification = v.object({
  eventType: v.pipe(v.string(), v.maxLength(40)),
  data: v.object({ id: v.optional(positiveId), order: v.optional(v.object({ id: positiveId })) }),
  metadata: v.optional(v.unknown()),
});

/**
 * The other inputs of « Nous soutenir »'s routes (docs/support.md), read by their validators as
 * `supportBodies` are.
 */
export const supportInputs = {
  /** The query HelloAsso appends to the return address. */
  returnQuery: v.object({
    checkoutIntentId: v.optional(idText),
    orderId: v.optional(idText),
    code: v.optional(v.pipe(v.string(), v.maxLength(40))),
    error: v.optional(v.pipe(v.string(), v.maxLength(200))),
  }),
  notification: helloAssoNotification,
  /** A notification's address: the secret key, bounded before it is compared. */
  notificationParams: v.strictObject({ key: v.pipe(v.string(), v.maxLength(200)) }),
  /**
   * A notification's body as the route declares it: one HelloAsso may send that this route does not
   * read (another event, another shape) is `null`, answered 204 and ignored rather than refused, so
   * that HelloAsso does not send it again.
   */
  notificationBody: v.nullable(helloAssoNotification),
  /** The editor's figures: one residence's, or all those the editor may see. */
  figuresQuery: v.strictObject({ residence: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,60}$/))) }),
};

/** A residence's two choices of « Me prévenir ». */
const pushChoice = v.strictObject(
  {
    id: v.pipe(
      v.string('Résidence inconnue.'),
      v.maxLength(60, 'Résidence inconnue.'),
      v.regex(/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/, 'Résidence inconnue.'),
    ),
    live: v.boolean('Choix « quand l’émission commence » invalide.'),
    replay: v.boolean('Choix « quand une nouvelle émission est publiée » invalide.'),
  },
  'Champ inconnu dans un choix de résidence.',
);
const pushEndpoint = v.pipe(
  v.string('Adresse du service de notifications manquante.'),
  v.maxLength(ENDPOINT_MAX, 'L’adresse du service de notifications est trop longue.'),
);
const pushKey = (max: number) =>
  v.pipe(v.string('Clés de notification invalides.'), v.maxLength(max, 'Clés de notification invalides.'));

/**
 * The bodies of « Me prévenir »'s requests (docs/push.md, « The API »): what the browser's
 * PushSubscription gives (its endpoint and keys) and the choices, each refusal in French. The
 * endpoint's host and address and the keys' sizes are checked after (push/endpoint.ts).
 */
export const pushBodies = {
  subscription: v.strictObject(
    {
      endpoint: pushEndpoint,
      keys: v.strictObject({ p256dh: pushKey(100), auth: pushKey(40) }, 'Clés de notification invalides.'),
      residences: v.pipe(
        v.array(pushChoice, 'Liste de résidences invalide.'),
        v.minLength(1, 'Choisissez au moins une résidence.'),
        v.maxLength(PUSH_RESIDENCES_MAX, `Au plus ${String(PUSH_RESIDENCES_MAX)} résidences.`),
        v.check(
          (choices) => choices.every((choice) => choice.live || choice.replay),
          'Chaque résidence a au moins un des deux choix.',
        ),
        v.check(
          (choices) => new Set(choices.map((choice) => choice.id)).size === choices.length,
          'Une résidence est nommée deux fois.',
        ),
      ),
    },
    'Champ inconnu dans l’abonnement.',
  ),
  unsubscription: v.strictObject(
    { endpoint: pushEndpoint, keys: v.strictObject({ auth: pushKey(40) }, 'Clés de notification invalides.') },
    'Champ inconnu dans la demande.',
  ),
  /**
   * A renewal by the browser's worker, which knows the subscription and not the choices: its
   * endpoint and `auth`; with `old`, the subscription the browser replaced, moved to this one (whose
   * `p256dh` is then required).
   */
  renewal: v.strictObject(
    {
      endpoint: pushEndpoint,
      keys: v.strictObject({ p256dh: v.optional(pushKey(100)), auth: pushKey(40) }, 'Clés de notification invalides.'),
      old: v.optional(
        v.strictObject(
          { endpoint: pushEndpoint, keys: v.strictObject({ auth: pushKey(40) }, 'Clés de notification invalides.') },
          'Champ inconnu dans l’ancien abonnement.',
        ),
      ),
    },
    'Champ inconnu dans la demande.',
  ),
};

/** The request and answer schemas of each /api route, all made from the shared definitions. */
export const routeSchemas = {
  error: jsonSchema(apiErrorSchema),
  podcastsQuery: jsonSchema(v.strictObject({ limit, q: v.optional(v.pipe(v.string(), v.maxLength(200))) })),
  podcasts: jsonSchema(v.array(podcastItemSchema)),
  releasesQuery: jsonSchema(v.strictObject({ limit })),
  releases: jsonSchema(v.array(releaseSchema)),
  radio: jsonSchema(radioSettingsAnswerSchema),
  timeshift: jsonSchema(timeshiftAnswerSchema),
  live: jsonSchema(liveStatusSchema),
  nowPlaying: jsonSchema(nowPlayingSchema),
  episodesQuery: jsonSchema(
    v.strictObject({
      // A long search is not refused: it is read up to its first 100 characters (docs/episodes.md).
      q: v.optional(v.pipe(v.string(), v.maxLength(16_384))),
      style: v.optional(v.pipe(v.string(), v.maxLength(100))),
      residence: v.optional(v.pipe(v.string(), v.maxLength(100))),
      page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
    }),
  ),
  episodes: jsonSchema(episodesPageSchema),
  episodeParams: jsonSchema(v.object({ slug: v.pipe(v.string(), v.maxLength(200)) })),
  episode: jsonSchema(episodeDetailSchema),
  chapters: jsonSchema(chaptersSchema),
  styles: jsonSchema(stylesSchema),
  // The played artists (docs/artists.md): `q` read up to its first 100 characters, as the archive's.
  playedArtistsQuery: jsonSchema(
    v.strictObject({
      q: v.optional(v.pipe(v.string(), v.maxLength(16_384))),
      page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
    }),
  ),
  playedArtists: jsonSchema(playedArtistsPageSchema),
  // Any text: one that cannot be a slug is unknown (404), as an episode's.
  playedArtistParams: jsonSchema(v.object({ slug: v.pipe(v.string(), v.maxLength(16_384)) })),
  playedArtist: jsonSchema(playedArtistSchema),
  trackParams: jsonSchema(v.object({ trackUrn: v.string() })),
  // GET /api/content/:kind: one kind of the content volunteers edit (docs/content.md).
  contentParams: jsonSchema(v.object({ kind: v.pipe(v.string(), v.maxLength(40)) })),
  // The residences' filters (docs/api.md, « Content »): `?view=summary`, as a list shows them;
  // `?id=`, the one residence of that id (none when unknown).
  contentQuery: jsonSchema(
    v.strictObject({
      view: v.optional(v.picklist(['summary'])),
      id: v.optional(v.pipe(v.string(), v.maxLength(60))),
    }),
  ),
  contentVersionParams: jsonSchema(
    v.object({ kind: v.pipe(v.string(), v.maxLength(40)), id: v.pipe(v.string(), v.maxLength(60)) }),
  ),
  residenceParams: jsonSchema(v.object({ id: v.pipe(v.string(), v.maxLength(60)) })),
  // A save: the content, and the version it started from (a conflict is told, docs/content.md).
  contentSave: jsonSchema(
    v.strictObject({ data: v.unknown(), basedOn: v.optional(v.pipe(v.string(), v.maxLength(60))) }),
  ),
  contentPreview: jsonSchema(v.strictObject({ data: v.unknown() })),
  residencePreview: jsonSchema(v.strictObject({ entry: v.record(v.string(), v.unknown()) })),
  residenceSave: jsonSchema(
    v.strictObject({
      entry: v.record(v.string(), v.unknown()),
      basedOn: v.optional(v.pipe(v.string(), v.maxLength(60))),
    }),
  ),
  // The passkeys' ceremonies (docs/content.md, « Signing in »).
  invitationOptions: jsonSchema(
    v.strictObject({
      token: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
      name: v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), v.maxLength(60)),
    }),
  ),
  passkeyAnswer: jsonSchema(
    v.strictObject({
      ceremony: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
      response: v.record(v.string(), v.unknown()),
    }),
  ),
  contentRestore: jsonSchema(v.strictObject({ id: v.pipe(v.string(), v.maxLength(60)) })),
  // /api/content/tracklists/:episode: an episode's tracklist, its save (the entry, and the version
  // it was checked against) (docs/content.md, « Tracklists »).
  tracklistParams: jsonSchema(v.object({ episode: v.pipe(v.string(), v.maxLength(200)) })),
  tracklistSave: jsonSchema(
    v.strictObject({
      entry: v.record(v.string(), v.unknown()),
      basedOn: v.optional(v.pipe(v.string(), v.maxLength(60))),
    }),
  ),
  // GET /api/content/:kind/history: a page of at most 50 versions, older than `before` (the
  // previous page's `next`, a version's id) (docs/content.md, « The history, in pages »).
  contentHistoryQuery: jsonSchema(
    v.strictObject({
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))),
      before: v.optional(v.pipe(v.string(), v.maxLength(60), v.regex(/^\d{8}T\d{9}Z-[0-9a-f]{6}$/))),
    }),
  ),
  adminHeaders: jsonSchema(v.object({ authorization: v.optional(v.string()) })),
  adminLive: jsonSchema(v.strictObject({ live: v.boolean() })),
  scheduleQuery: jsonSchema(
    v.strictObject({
      from: v.optional(v.pipe(v.string(), v.maxLength(40))),
      to: v.optional(v.pipe(v.string(), v.maxLength(40))),
      residence: v.optional(v.pipe(v.string(), v.maxLength(100))),
    }),
  ),
  // Instants in UTC (ISO 8601), the calendars' zone beside them (docs/schedule.md).
  schedule: jsonSchema(scheduleSchema),
  // GET /api/schedule/event.ics?id=: one show, by its occurrence's id (its event's UID and its start).
  scheduleEventIcsQuery: jsonSchema(v.strictObject({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)) })),
  // GET /api/schedule.ics?residence=: the schedule, or one residence's shows, to subscribe to.
  scheduleIcsQuery: jsonSchema(v.strictObject({ residence: v.optional(v.pipe(v.string(), v.maxLength(100))) })),
  // GET /api/schedule/suivi.ics?residences=a,b: the shows of the residences a visitor follows, with a
  // reminder each (docs/follow.md, « The calendar »). 50 ids of 60 characters and their commas at most.
  scheduleFollowIcsQuery: jsonSchema(
    v.strictObject({ residences: v.pipe(v.string(), v.minLength(1), v.maxLength(FOLLOW_MAX * 61)) }),
  ),
  // GET /api/events?residence=: the coming and past events, or those whose line-up names a residence (docs/events.md).
  // `coming` and `past`: at most that many of each (a page that shows fewer, or only the year's figure).
  eventsQuery: jsonSchema(
    v.strictObject({
      residence: v.optional(v.pipe(v.string(), v.maxLength(100))),
      coming: count,
      past: count,
    }),
  ),
  events: jsonSchema(eventsSchema),
  // GET /api/events/:slug (and its .ics): anything that is not a slug is an unknown event, 404.
  eventParams: jsonSchema(v.object({ slug: v.string() })),
  event: jsonSchema(eventItemSchema),
  // « Nous soutenir » (docs/support.md): GET /api/support, POST /api/support/don and
  // /api/support/adhesion (`supportBodies`), the return page's check, HelloAsso's notifications and
  // the editor's figures (`supportInputs`).
  support: jsonSchema(supportSchema),
  supportDonation: jsonSchema(supportBodies.donation),
  supportMembership: jsonSchema(supportBodies.membership),
  supportRedirect: jsonSchema(supportRedirectSchema),
  supportReturnQuery: jsonSchema(supportInputs.returnQuery),
  supportReturn: jsonSchema(supportReturnSchema),
  supportNotificationParams: jsonSchema(supportInputs.notificationParams),
  supportNotificationBody: jsonSchema(supportInputs.notificationBody),
  supportFiguresQuery: jsonSchema(supportInputs.figuresQuery),
  supportFigures: jsonSchema(supportFiguresSchema),
  // GET /api/push/key, PUT and DELETE /api/push/subscription, POST …/renew (`pushBodies`, docs/push.md).
  pushKey: jsonSchema(v.object({ publicKey: v.string() })),
  pushSubscription: jsonSchema(pushBodies.subscription),
  pushUnsubscription: jsonSchema(pushBodies.unsubscription),
  pushRenewal: jsonSchema(pushBodies.renewal),
  pushChoices: jsonSchema(v.object({ residences: v.array(pushChoice) })),
};
