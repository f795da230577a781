/**
 * What the API's description says to an integrator about each public operation (docs/api.md, « The
 * description »): its French summary, what each answer is, how a 200 may be cached, and where the
 * demo answers it (the example in the document, and the address the tests ask). The shapes are not
 * here: they are the routes' own schemas. `openapi.test.ts` fails when an operation of the
 * document has no entry here, or an entry names no operation, or a 200 says other caching headers
 * than the demo's answer carries.
 */

/** An answer that is not JSON: its media type, and what it holds. */
export interface Answer {
  description: string;
  /** Its media type, when it is not `application/json`. */
  type?: string;
  /** No body (204, 303). */
  empty?: true;
}

/** The caching a success answer says. */
export interface Caching {
  /** Its `Cache-Control` as the demo sends it while its sources answer (a `max-age` is the most it says). */
  cacheControl: string;
  /** Whether it carries a weak `ETag`, so that `If-None-Match` gets 304. */
  etag: boolean;
}

/** The demo's request whose answer is the example, and which the tests check against the schema. */
export interface DemoRequest {
  url: string;
  method?: 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
}

export interface Operation {
  summary: string;
  description?: string;
  /** The success answers by status (the errors are described alike for every route, `errorAnswers`). */
  answers: Record<string, string | Answer>;
  caching?: Caching;
  /**
   * The demo's request for the example, or why none is given (a proof of work to solve, a push
   * service's real subscription, a payment at HelloAsso's).
   */
  demo: DemoRequest | { none: string };
}

const JSON_TEXT = 'Du JSON ; les textes à montrer (titres, messages) sont en français.';

/** How an upstream's answer may be kept: a minute while it is fresh, then revalidated. */
const fromUpstream: Caching = { cacheControl: 'public, max-age=60', etag: true };
const STALE =
  'Servie encore quand sa source ne répond plus : elle dit alors `max-age=0, must-revalidate`, et `X-Cache` dit `STALE`.';

/** The errors, alike on every route: the body is `{ error, message }` with the message in French. */
export const errorAnswers: Record<string, string> = {
  '4XX':
    'Requête refusée : `{ error, message }`, `error` un code stable, `message` une phrase en français à montrer. Jamais gardée en cache (`no-store`).',
  '5XX':
    'Le serveur ou une source qu’il lit ne peut pas répondre : `{ error, message }` en français (par exemple `upstream_unavailable`). Jamais gardée en cache (`no-store`).',
};

export const NOT_MODIFIED = 'Inchangée depuis la version que nomme `If-None-Match` : pas de corps.';

/** Every public operation, as `METHOD /path/{param}` as the document writes it. */
export const operations: Record<string, Operation> = {
  'GET /api/openapi.json': {
    summary: 'La description de l’API',
    description: 'Ce document, en OpenAPI 3.1 ; sa page de référence est `/api/docs`.',
    answers: { 200: 'Le document OpenAPI 3.1.' },
    caching: { cacheControl: 'public, max-age=300', etag: false },
    demo: { none: 'Le document lui-même.' },
  },
  'GET /api/xsrf': {
    summary: 'Un jeton XSRF neuf',
    description:
      'Pose le cookie `XSRF-TOKEN` (`__Host-XSRF-TOKEN` en https), à renvoyer dans l’en-tête `X-XSRF-TOKEN` de chaque écriture.',
    answers: { 204: { description: 'Le cookie est posé (`Set-Cookie`), sans corps.', empty: true } },
    demo: { none: 'Pas de corps.' },
  },
  'GET /api/soundcloud-rss': {
    summary: 'Le flux RSS des émissions',
    description: `Le flux des émissions passées, tel que le podcast le publie. ${STALE}`,
    answers: { 200: { description: 'Le flux RSS 2.0 (iTunes).', type: 'application/rss+xml' } },
    caching: fromUpstream,
    demo: { url: '/api/soundcloud-rss' },
  },
  'GET /api/podcasts': {
    summary: 'Les émissions, les plus récentes d’abord',
    description: `Chaque émission du flux avec ce qu’il faut pour l’écouter ; \`limit\` en garde les premières, \`q\` filtre. ${STALE}`,
    answers: { 200: `La liste des émissions. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/podcasts?limit=2' },
  },
  'GET /api/episodes': {
    summary: 'Les archives, page par page',
    description: `Une page des émissions passées, filtrée par recherche (\`q\`), style ou résidence. ${STALE}`,
    answers: { 200: `Une page d’émissions et le nombre de pages. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/episodes' },
  },
  'GET /api/episodes/{slug}': {
    summary: 'Une émission',
    description: `L’émission de ce nom d’adresse, avec sa liste de titres quand elle en a une ; 404 \`episode_not_found\` sinon. ${STALE}`,
    answers: { 200: `L’émission. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/episodes/{first-episode}' },
  },
  'GET /api/episodes/{slug}/chapters.json': {
    summary: 'Les chapitres d’une émission',
    description: 'Sa liste de titres au format des chapitres de podcast (Podcasting 2.0, `application/json+chapters`).',
    answers: { 200: 'Les chapitres, chacun son début en secondes et son titre.' },
    caching: fromUpstream,
    demo: { url: '/api/episodes/{episode-with-tracklist}/chapters.json' },
  },
  'GET /api/styles': {
    summary: 'Les styles des émissions',
    description: `Chaque style (étiquette du flux) et son nombre d’émissions, pour les filtres des archives. ${STALE}`,
    answers: { 200: 'Les styles et leurs nombres.' },
    caching: fromUpstream,
    demo: { url: '/api/styles' },
  },
  'GET /api/releases': {
    summary: 'Les sorties du label',
    description:
      'Les sorties, de la plus récente à la plus ancienne, avec la page de l’artiste quand le site en a une (`artistSlug`).',
    answers: { 200: `La liste des sorties. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/releases' },
  },
  'GET /api/artists': {
    summary: 'Les artistes joués, de A à Z',
    description:
      'Une page de 50 artistes que la radio a joués ou que le label sort ; `q` garde ceux dont le nom le contient.',
    answers: { 200: `Une page d’artistes. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/artists' },
  },
  'GET /api/artists/{slug}': {
    summary: 'Un artiste joué',
    description:
      'Ses passages dans les émissions, ses sorties au label et sa résidence ; 404 `artist_not_found` sinon.',
    answers: { 200: `L’artiste. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/artists/axonberg' },
  },
  'GET /api/content/{kind}': {
    summary: 'Un contenu que les bénévoles éditent',
    description:
      'La version courante d’un contenu : `residences`, `releases`, `tracklists`, `team`, `about`, `slides`, `support`, `artistMerges` ou `figures`. Sa forme dépend du contenu : le schéma en donne une par contenu (`title`). Pour les résidences, `view=summary` donne ce qu’une liste montre (id, artiste, émission, portrait) et `id=` la seule résidence de cet identifiant. Revalidée à chaque usage (`no-cache`) : son ETag est la version, une modification enregistrée se voit aussitôt.',
    answers: { 200: `Le contenu demandé, dans la forme de son type. ${JSON_TEXT}` },
    caching: { cacheControl: 'no-cache', etag: true },
    demo: { url: '/api/content/{kind}' },
  },
  'GET /api/radio': {
    summary: 'Les réglages de la radio',
    description:
      'L’adresse du direct et ses débits, la salle de discussion, les calendriers : ce que le lecteur lit au démarrage.',
    answers: { 200: 'Les réglages.' },
    caching: { cacheControl: 'public, max-age=60', etag: true },
    demo: { url: '/api/radio' },
  },
  'GET /api/islive': {
    summary: 'Le direct est-il à l’antenne ?',
    description: `\`{ "live": true }\` pendant une émission en direct (Twitch). ${STALE}`,
    answers: { 200: 'L’état du direct.' },
    caching: fromUpstream,
    demo: { url: '/api/islive' },
  },
  'GET /api/nowplaying': {
    summary: 'Le titre à l’antenne',
    description: `L’artiste, le titre et la pochette du morceau joué, et jusqu’à cinq titres précédents (\`history\`). ${STALE}`,
    answers: { 200: `Le titre joué. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/nowplaying' },
  },
  'GET /api/nowplaying/events': {
    summary: 'Le titre à l’antenne, à chaque changement',
    description:
      'Un flux d’évènements serveur (`text/event-stream`) : un message `nowplaying` par changement, de la même forme que `GET /api/nowplaying`. Le nombre de flux ouverts par adresse est borné (429 `too_many_streams`).',
    answers: {
      200: { description: 'Le flux d’évènements, tant que la connexion reste ouverte.', type: 'text/event-stream' },
    },
    demo: { none: 'Un flux sans fin.' },
  },
  'GET /api/schedule': {
    summary: 'Le programme de la radio',
    description:
      'Les émissions prévues entre `from` et `to` (sept jours par défaut), instants en UTC, le fuseau des calendriers à côté.',
    answers: { 200: `Le programme. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/schedule' },
  },
  'GET /api/schedule/event.ics': {
    summary: 'Une émission du programme, à ajouter à son agenda',
    description: 'L’occurrence que nomme `id`, en iCalendar.',
    answers: { 200: { description: 'Un fichier iCalendar d’un évènement.', type: 'text/calendar' } },
    caching: fromUpstream,
    demo: { url: '/api/schedule/event.ics?id={first-show}' },
  },
  'GET /api/schedule.ics': {
    summary: 'Le programme, comme agenda à suivre',
    description: 'Les émissions à venir, ou celles d’une résidence (`residence`), en iCalendar.',
    answers: { 200: { description: 'Un agenda iCalendar.', type: 'text/calendar' } },
    caching: fromUpstream,
    demo: { url: '/api/schedule.ics' },
  },
  'GET /api/schedule/suivi.ics': {
    summary: 'Les émissions des résidences suivies, comme agenda',
    description: 'Celles des résidences de `residences` (séparées par des virgules), chacune avec un rappel.',
    answers: { 200: { description: 'Un agenda iCalendar.', type: 'text/calendar' } },
    caching: fromUpstream,
    demo: { url: '/api/schedule/suivi.ics?residences=158cm' },
  },
  'GET /api/events': {
    summary: 'Les évènements du collectif',
    description:
      'Les soirées et concerts à venir (les plus proches d’abord) et passés, ceux d’une résidence avec `residence`, `coming` et `past` pour en garder moins.',
    answers: { 200: `Les évènements. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/events' },
  },
  'GET /api/events.ics': {
    summary: 'Les évènements, comme agenda à suivre',
    answers: { 200: { description: 'Un agenda iCalendar de tous les évènements.', type: 'text/calendar' } },
    caching: fromUpstream,
    demo: { url: '/api/events.ics' },
  },
  'GET /api/events/{slug}': {
    summary: 'Un évènement',
    description: 'L’évènement de ce nom d’adresse ; 404 `event_not_found` sinon.',
    answers: { 200: `L’évènement. ${JSON_TEXT}` },
    caching: fromUpstream,
    demo: { url: '/api/events/{first-event}' },
  },
  'GET /api/events/{slug}.ics': {
    summary: 'Un évènement, à ajouter à son agenda',
    answers: { 200: { description: 'Un fichier iCalendar d’un évènement.', type: 'text/calendar' } },
    caching: fromUpstream,
    demo: { url: '/api/events/{first-event}.ics' },
  },
  'GET /api/track/{trackUrn}': {
    summary: 'L’adresse d’écoute d’un titre SoundCloud',
    description:
      'Pour `soundcloud:tracks:<chiffres>`, l’adresse du flux, en texte. 503 `track_unavailable` quand le site n’a pas de service de titres (la démo n’en a pas).',
    answers: { 200: { description: 'L’adresse du flux, en texte.', type: 'text/plain' } },
    caching: fromUpstream,
    demo: { none: 'La démo n’a pas de service de titres SoundCloud.' },
  },
  'GET /api/timeshift': {
    summary: 'La réécoute du direct',
    description:
      'Les heures du direct que le site garde (« Reprendre au début »), leur début et leur fin, et les titres joués.',
    answers: { 200: 'Ce que la réécoute du direct couvre.' },
    caching: { cacheControl: 'public, max-age=5', etag: false },
    demo: { url: '/api/timeshift' },
  },
  'GET /api/support': {
    summary: 'Nous soutenir : adhésion et dons',
    description:
      'Si HelloAsso prend les paiements sur le site, les tarifs d’adhésion, les montants de don proposés et l’avancée de l’année.',
    answers: { 200: `Ce que la page « Nous soutenir » montre. ${JSON_TEXT}` },
    caching: { cacheControl: 'public, max-age=30', etag: false },
    demo: { url: '/api/support' },
  },
  'POST /api/support/don': {
    summary: 'Commencer un don',
    description:
      'Un montant en centimes entiers ; la réponse donne la page de paiement de HelloAsso. Refus en français (400), 409 `support_closed`, 429 au-delà de cinq par minute.',
    answers: { 200: 'La page de paiement où envoyer le visiteur.' },
    demo: { url: '/api/support/don', method: 'POST', body: { amount: 1500 } },
  },
  'POST /api/support/adhesion': {
    summary: 'Commencer une adhésion',
    description: 'Un tarif du formulaire d’adhésion ; la réponse donne sa page chez HelloAsso.',
    answers: { 200: 'La page d’adhésion où envoyer le visiteur.' },
    demo: { url: '/api/support/adhesion', method: 'POST', body: { tier: '{first-tier}' } },
  },
  'GET /api/support/retour': {
    summary: 'Le paiement, relu au retour de HelloAsso',
    description: 'Payé, refusé ou inachevé ; 404 pour un paiement qui n’a pas été fait depuis ce navigateur.',
    answers: { 200: `L’état du paiement. ${JSON_TEXT}` },
    demo: { none: 'Un paiement fait depuis ce navigateur, chez HelloAsso.' },
  },
  'GET /api/push/key': {
    summary: 'La clé pour s’abonner aux notifications',
    description: 'La clé publique VAPID de « Me prévenir » ; 503 `push_off` quand le site n’en envoie pas.',
    answers: { 200: 'La clé publique.' },
    caching: { cacheControl: 'public, max-age=300', etag: false },
    demo: { url: '/api/push/key' },
  },
  'PUT /api/push/subscription': {
    summary: 'Me prévenir : enregistrer ses choix',
    description:
      'L’abonnement du navigateur (son adresse et ses clés) et, pour chaque résidence, quand prévenir. La réponse redit les résidences que le site a.',
    answers: { 200: 'Les choix gardés.' },
    demo: { none: 'Un abonnement réel d’un service de notifications.' },
  },
  'DELETE /api/push/subscription': {
    summary: 'Me prévenir : ne plus rien recevoir',
    answers: { 204: { description: 'Fait, qu’il y ait eu un abonnement ou non.', empty: true } },
    demo: { none: 'Pas de corps.' },
  },
  'POST /api/push/subscription/renew': {
    summary: 'Me prévenir : renouveler un abonnement',
    description:
      'Envoyé par le service worker du navigateur quand son abonnement change ; depuis les pages du site seulement.',
    answers: { 204: { description: 'Renouvelé.', empty: true } },
    demo: { none: 'Pas de corps.' },
  },
  'GET /api/proposals/challenge': {
    summary: 'Le défi anti-spam d’un formulaire',
    description:
      'Un défi ALTCHA à résoudre avant d’envoyer une proposition, avec l’instant signé où le formulaire a commencé. Depuis les pages du site seulement.',
    answers: { 200: 'Le défi.' },
    demo: { url: '/api/proposals/challenge' },
  },
  'POST /api/proposals/{kind}': {
    summary: 'Proposer une émission ou envoyer une démo',
    description:
      '`emission` ou `demo`, en JSON ou par le formulaire sans JavaScript (qui est redirigé, 303). Les refus donnent `fields`, une phrase en français par champ. Depuis les pages du site seulement.',
    answers: {
      201: 'La proposition enregistrée : son numéro et le lien pour la supprimer.',
      303: {
        description: 'Le formulaire sans JavaScript : vers la page « Merci ! » ou le formulaire à corriger.',
        empty: true,
      },
    },
    demo: { none: 'Un défi à résoudre et un temps de remplissage signé.' },
  },
  'GET /api/proposals/drafts/{id}': {
    summary: 'Un formulaire refusé, relu',
    description:
      'Ce qu’un formulaire sans JavaScript avait envoyé et pourquoi il a été refusé, pour le réafficher ; 404 une fois expiré.',
    answers: { 200: 'Les champs envoyés et leurs refus.' },
    demo: { none: 'Un formulaire refusé juste avant.' },
  },
  'POST /api/proposals/delete': {
    summary: 'Supprimer sa proposition',
    description: 'Avec le numéro et le jeton du lien reçu ; 404 pareil pour un numéro inconnu et un mauvais jeton.',
    answers: {
      200: 'Supprimée.',
      303: { description: 'Le formulaire sans JavaScript : vers la page qui le dit.', empty: true },
    },
    demo: { none: 'Une proposition à supprimer.' },
  },
  'POST /api/figures/beacon': {
    summary: 'Compter une écoute',
    description:
      'La balise du lecteur, en JSON envoyé comme `text/plain` (`navigator.sendBeacon`) ; elle ne compte personne. 400 `bad_beacon`, 413 au-delà de 512 octets.',
    answers: { 204: { description: 'Reçue, comptée ou non.', empty: true } },
    demo: { none: 'Pas de corps.' },
  },
  'GET /api/parts': {
    summary: 'Les parties du site déployées',
    description:
      'Chaque partie (shell, lecteur, radio, label, à propos, éditeur), d’où elle est servie et son dernier refus de déploiement.',
    answers: { 200: 'L’état des parties.' },
    caching: { cacheControl: 'no-store', etag: false },
    demo: { url: '/api/parts' },
  },
};
