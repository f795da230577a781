// @ts-check
// The schemas of the content volunteers edit (docs/parts.md, « Content »), in the site's one schema
// language (Valibot). A plain module, so that the build (node, no TypeScript) checks the files with
// them, the server reads its files with them, and each `X.schema.json` an editor uses beside `X.json`
// is written from them (`npm run build`, shared/build/content.mjs; a test fails when one is stale).
import * as v from 'valibot';
import { TRACK_TEXT_MAX } from '../limits.mjs';

/** An https address that cannot leave its attribute. */
export const HTTPS = /^https:\/\/[^\s"'<>]+$/;
/** An address of the site, or an https one. */
const HTTPS_OR_PATH = /^(https:\/\/|\/)[^\s"'<>]+$/;
/** A name used in an address: letters, digits, single hyphens. */
export const SLUG = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;

/**
 * The editors' bounds (docs/content.md, « Bounds »): a signed-in editor cannot fill the disk or stall
 * the server with one field. Any free text: 2,000 characters at most (the longest today, a
 * paragraph of the About page, is 273; a residence's description, 165). An address: 2,048.
 */
export const TEXT_MAX = 2000;
export const URL_MAX = 2048;
const text = v.pipe(v.string(), v.minLength(1), v.maxLength(TEXT_MAX));
const https = v.pipe(v.string(), v.maxLength(URL_MAX), v.regex(HTTPS));
const email = v.pipe(v.string(), v.email());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** A picture of the site under `folder`, as the build makes it (`.webp`). */
const picture = (/** @type {string} */ folder) =>
  v.pipe(v.string(), v.regex(new RegExp(`^/assets/images/${folder}/[a-z0-9-]+\\.webp$`)));
/** An uploaded picture's name at `width` (docs/content.md, « Pictures »), as a pattern's text. */
const UPLOADED = (/** @type {number} */ width) => `/media/[0-9a-f]{32}-${String(width)}\\.webp`;
/**
 * A picture an editor uploaded, at the largest width of its use: `/media/<name>-<width>.webp`, its
 * smaller copies beside it.
 * @param {number} width
 */
export const uploadedPicture = (width) => new RegExp(`^${UPLOADED(width)}$`);
/**
 * A picture of the site under `folder`, or one uploaded for that use (at its largest width).
 * @param {string} folder
 * @param {number} width
 */
const pictureOrUpload = (folder, width) =>
  v.pipe(v.string(), v.regex(new RegExp(`^(?:/assets/images/${folder}/[a-z0-9-]+\\.webp|${UPLOADED(width)})$`)));
const paragraphs = v.pipe(v.array(text), v.minLength(1), v.maxLength(20));
const unique = v.check(
  (/** @type {string[]} */ items) => new Set(items).size === items.length,
  'chaque valeur une seule fois',
);

/**
 * The bounds of the radio's renditions, its mounts (docs/settings.md, « The radio »): a few, each with
 * a short French label the player shows, a bitrate an HLS variant states, and a name that is a folder
 * of the timeline (`/direct/<id>/`).
 */
export const RENDITIONS = { max: 8, idMax: 32, labelMax: 40, bitrateMin: 8, bitrateMax: 512 };
/** A stream's address: https, or a path of the site (never `//`, which names another host). */
export const STREAM_URL = /^(https:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)$/;
/** A rendition's name: lower-case letters, digits, single hyphens (a folder and a key). */
export const RENDITION_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A label: no control character, no space at either end. */
export const RENDITION_LABEL = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;

/** One mount of the radio: `{ "id": "econome", "label": "Économe", "url": "…", "bitrate": 48, "codec": "mp3" }`. */
export const renditionSchema = v.strictObject({
  id: v.pipe(v.string(), v.maxLength(RENDITIONS.idMax), v.regex(RENDITION_ID)),
  label: v.pipe(v.string(), v.maxLength(RENDITIONS.labelMax), v.regex(RENDITION_LABEL)),
  url: v.pipe(v.string(), v.maxLength(URL_MAX), v.regex(STREAM_URL)),
  bitrate: v.pipe(v.number(), v.integer(), v.minValue(RENDITIONS.bitrateMin), v.maxValue(RENDITIONS.bitrateMax)),
  codec: v.literal('mp3'),
});

/** The radio's mounts, the normal one first; each name once. */
export const renditionsSchema = v.pipe(
  v.array(renditionSchema),
  v.minLength(1),
  v.maxLength(RENDITIONS.max),
  v.check(
    (/** @type {v.InferOutput<typeof renditionSchema>[]} */ items) =>
      new Set(items.map((item) => item.id)).size === items.length,
    'chaque id une seule fois',
  ),
);

/** The radio's settings in site.json (the server's variables override them, docs/settings.md). */
export const radioConfigSchema = v.strictObject({
  liveStreamUrl: v.pipe(v.string(), v.regex(HTTPS_OR_PATH)),
  /** The mounts, the first being `liveStreamUrl` (docs/settings.md, « The radio »); unset: that one alone. */
  renditions: v.optional(renditionsSchema),
  apiBase: v.pipe(v.string(), v.regex(/^(https:\/\/[^\s"'<>]+|\/[^\s"'<>]*)$/)),
  twitchChannel: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_]{3,25}$/)),
  chatRoom: text,
  chatEmbedUrl: v.pipe(v.string(), v.regex(/^https:\/\/[^\s"'<>]*\{room\}[^\s"'<>]*$/)),
  calendarIds: v.pipe(v.array(v.pipe(v.string(), v.minLength(3))), v.minLength(1), v.maxLength(4)),
});

/** shared/config/site.json: the collective's name, addresses, links, figures and the radio's settings. */
export const siteConfigSchema = v.pipe(
  v.strictObject({
    name: text,
    baseline: text,
    emails: v.strictObject({ contact: email, shows: email, labelDemos: email }),
    links: v.strictObject({
      shop: https,
      photos: https,
      instagram: https,
      soundcloud: https,
      bandcamp: https,
      linkList: https,
      donation: https,
    }),
    legal: v.strictObject({
      rna: v.pipe(v.string(), v.regex(/^W[0-9]{9}$/)),
      siret: v.pipe(v.string(), v.regex(/^[0-9 ]{14,17}$/)),
    }),
    radio: radioConfigSchema,
    label: v.strictObject({ salesBaseUrl: https }),
    studio: v.strictObject({ address: v.pipe(v.string(), v.minLength(5)) }),
    stats: v.strictObject({
      created: v.pipe(v.number(), v.integer(), v.minValue(1900)),
      city: v.string(),
      radio: v.strictObject({ residencies: count, streams: v.string(), liveSessions: count }),
      label: v.strictObject({ releases: count, artists: count }),
      events: v.strictObject({ productions: count, thisYear: count }),
    }),
  }),
  v.title('Configuration du site'),
);

/** One residence of shared/content/residences.json. */
export const residenceEntrySchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(SLUG), v.maxLength(60)),
  artist: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
  show: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
  description: text,
  styles: v.pipe(v.array(v.pipe(v.string(), v.maxLength(40))), v.maxLength(12)),
  instagram: v.optional(https),
  soundcloud: v.optional(https),
  bandcamp: v.optional(https),
  website: v.optional(https),
  /** Uploaded pictures (docs/content.md, « Pictures »); without them, the ones named after its id. */
  portrait: v.optional(v.pipe(v.string(), v.regex(uploadedPicture(800)))),
  header: v.optional(v.pipe(v.string(), v.regex(uploadedPicture(1600)))),
});

export const residencesSchema = v.pipe(
  v.array(residenceEntrySchema),
  v.minLength(1),
  // 56 today.
  v.maxLength(300),
  v.title('Résidences de la radio'),
  v.description(
    "Émissions résidentes. L'id sert d'adresse (residences/{id}) et de nom d'image (/assets/images/residences/{id}-400.webp). Plusieurs artistes se séparent par ' / '.",
  ),
);

/** server/content/releases.json. */
export const releasesContentSchema = v.pipe(
  v.array(
    v.strictObject({
      href: v.pipe(
        v.string(),
        v.regex(/^\/album\/[a-z0-9]+(-[a-z0-9]+)*$/),
        v.description("Chemin de l'album sur la page de vente du label, par exemple /album/garonne-dub-vol-6."),
      ),
      image: v.pipe(
        v.string(),
        v.regex(new RegExp(`^(?:/assets/images/releases/[a-z0-9-]+(-\\d+)?\\.webp|${UPLOADED(600)})$`)),
        v.description('Pochette : /assets/images/releases/<nom>.webp, ou une image envoyée (/media/…-600.webp).'),
      ),
      title: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
      artist: v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(120),
        v.description('Artiste, ou « Various Artists » pour une compilation.'),
      ),
    }),
  ),
  v.minLength(1),
  // 36 today.
  v.maxLength(500),
  v.title('Sorties du label'),
  v.description(
    "Les sorties du label, de la plus récente à la plus ancienne, servies par GET /api/releases. L'image est dessinée par le générateur de ressources à partir de son chemin.",
  ),
);

/** A Paris wall time, `HH:MM`. */
const wallTime = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/));
const demoWeekday = v.picklist(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);

/**
 * server/content/demo-events.json: the demo's events, from which the server writes the demo's
 * events calendar for the demo's day (server/src/events/demo.ts, docs/events.md « The demo »).
 */
export const demoEventsSchema = v.pipe(
  v.array(
    v.pipe(
      v.strictObject({
        id: v.pipe(
          v.string(),
          v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
          v.description("Nom de l'évènement : son UID dans l'agenda (<id>@demo.collectif)."),
        ),
        title: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
        day: v.optional(
          v.pipe(
            v.number(),
            v.integer(),
            v.minValue(-1000),
            v.maxValue(365),
            v.description('Son jour, compté depuis le jour de la démonstration (négatif : passé).'),
          ),
        ),
        monthly: v.optional(
          v.pipe(
            v.strictObject({
              weekday: demoWeekday,
              nth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)),
              monthsBefore: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24)),
              count: v.pipe(v.number(), v.integer(), v.minValue(2), v.maxValue(36)),
              moved: v.optional(v.pipe(v.number(), v.integer(), v.minValue(-6), v.maxValue(6))),
            }),
            v.description(
              "Une série mensuelle : le n-ième jour (weekday) du mois, depuis monthsBefore mois avant celui de la démonstration, count fois ; moved : la première date à venir (une semaine après le jour de la démonstration ou plus) est déplacée d'autant de jours (RECURRENCE-ID).",
            ),
          ),
        ),
        start: v.optional(v.pipe(wallTime, v.description('Heure de début (heure de Paris), HH:MM.'))),
        end: v.optional(
          v.pipe(wallTime, v.description('Heure de fin, HH:MM (le lendemain si elle ne vient pas après le début).')),
        ),
        days: v.optional(
          v.pipe(
            v.number(),
            v.integer(),
            v.minValue(1),
            v.maxValue(7),
            v.description('Un évènement sur la journée entière : son nombre de jours (sans start ni end).'),
          ),
        ),
        location: v.pipe(
          v.string(),
          v.minLength(1),
          v.maxLength(200),
          v.description('Le lieu, puis son adresse : « Le Bocal, 8 rue Pharaon, 31000 Toulouse ».'),
        ),
        geo: v.optional(
          v.strictObject({
            lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
            lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
          }),
        ),
        description: v.pipe(
          v.string(),
          v.minLength(1),
          v.maxLength(2000),
          v.description('Le texte, lignes séparées par \\n, dont la ligne « Avec : … » qui nomme qui joue.'),
        ),
        tickets: v.optional(v.pipe(v.string(), v.regex(HTTPS), v.description('La billetterie (https).'))),
        categories: v.optional(v.pipe(v.array(text), unique)),
        poster: v.optional(
          v.pipe(
            v.string(),
            // Its name ends with a letter: one ending with a number is read as a copy's width by the
            // asset generator (scripts/generate-assets.mjs).
            v.regex(/^\/assets\/images\/evenements\/[a-z0-9-]*[a-z]\.webp$/),
            v.description('Affiche 1200 × 800 sous /assets/images/evenements/, son nom finissant par une lettre.'),
          ),
        ),
        status: v.optional(v.picklist(['CONFIRMED', 'TENTATIVE', 'CANCELLED'])),
      }),
      v.check(
        (event) => (event.day === undefined) !== (event.monthly === undefined),
        'day ou monthly, un seul des deux',
      ),
      v.check(
        (event) => (event.days === undefined) === (event.start !== undefined && event.end !== undefined),
        'start et end, ou days',
      ),
    ),
  ),
  v.minLength(1),
  v.title('Évènements de la démonstration'),
  v.description(
    "Les évènements de l'agenda de démonstration (sans EVENTS_ICS_URLS), datés à partir du jour de la démonstration. Chaque affiche est dessinée par le générateur de ressources à partir de son chemin.",
  ),
);

/** mf-radio/content/slides.json. */
export const slidesSchema = v.pipe(
  v.array(
    v.strictObject({
      imagePath: pictureOrUpload('slides', 1600),
      titre: v.pipe(v.string(), v.minLength(1), v.maxLength(80)),
      description: v.pipe(v.string(), v.minLength(1), v.maxLength(300)),
      link: v.optional(https),
    }),
  ),
  v.minLength(1),
  v.maxLength(8),
  v.title("Diapositives du carrousel de l'accueil"),
  v.description(
    'Chaque diapositive : une image (générée ou fournie sous /assets/images/slides/), un titre, un texte et, si besoin, un lien externe ouvert dans un nouvel onglet.',
  ),
);

/** mf-about/content/team.json. */
export const teamSchema = v.pipe(
  v.array(
    v.strictObject({
      imagePath: v.pipe(
        pictureOrUpload('team', 480),
        v.description('Photo au format portrait (480 × 600), sous /assets/images/team/.'),
      ),
      title: v.pipe(v.string(), v.minLength(1), v.maxLength(40), v.description('Le prénom.')),
      description: v.pipe(v.string(), v.minLength(1), v.maxLength(120), v.description('Les rôles dans le collectif.')),
    }),
  ),
  v.minLength(1),
  v.maxLength(40),
  v.title("L'équipe (page À propos)"),
  v.description("Les membres présentés dans le bandeau « L'équipe », dans l'ordre d'affichage."),
);

const image = v.strictObject({
  src: v.pipe(picture('a-propos'), v.description('Image 1200 × 800 sous /assets/images/a-propos/.')),
  alt: v.pipe(text, v.description("Ce que montre l'image, pour qui ne la voit pas.")),
});
const textSection = v.strictObject({ heading: text, paragraphs });
/** Words shown after each figure of site.json. */
/**
 * @template {string} K
 * @param {readonly K[]} names
 * @param {string} where
 */
const statsWords = (names, where) =>
  v.pipe(
    v.strictObject(/** @type {Record<K, typeof text>} */ (Object.fromEntries(names.map((name) => [name, text])))),
    v.description(`Le mot affiché après chaque chiffre de site.json (${where}).`),
  );

/** mf-about/content/about.json: every text of the About page, in the page's order. */
export const aboutSchema = v.pipe(
  v.strictObject({
    heading: text,
    intro: v.strictObject({ statement: text, image }),
    collective: textSection,
    values: v.strictObject({
      heading: text,
      items: v.pipe(v.array(v.strictObject({ title: text, text })), v.minLength(1)),
    }),
    etymology: textSection,
    indicators: v.strictObject({ heading: text, createdLabel: text, locationLabel: text }),
    webradio: v.strictObject({
      heading: text,
      paragraphs,
      replayLink: text,
      statsLabel: text,
      stats: statsWords(['residencies', 'streams', 'liveSessions'], 'stats.radio'),
      image,
    }),
    label: v.strictObject({
      heading: text,
      paragraphs,
      stylesLabel: text,
      styles: v.pipe(v.array(text), v.minLength(1), unique),
      statsLabel: text,
      stats: statsWords(['releases', 'artists'], 'stats.label'),
      image,
    }),
    events: v.strictObject({
      heading: text,
      paragraphs,
      statsLabel: text,
      stats: statsWords(['productions', 'thisYear'], 'stats.events'),
      /** The link to the events' page (/evenements). */
      link: text,
      image,
    }),
    funding: v.strictObject({
      heading: text,
      paragraphs,
      sourcesLabel: text,
      sources: v.pipe(v.array(text), v.minLength(1)),
    }),
    studio: v.strictObject({
      heading: text,
      paragraphs,
      mapTitle: text,
      mapProvider: text,
      showMap: text,
      openMap: text,
    }),
    team: v.strictObject({
      heading: text,
      intro: text,
      stripLabel: v.pipe(text, v.description("Nom du bandeau lu par les lecteurs d'écran.")),
      previous: text,
      next: text,
    }),
    contact: v.strictObject({
      heading: text,
      intro: text,
      labels: v.pipe(
        v.strictObject({ contact: text, shows: text, labelDemos: text }),
        v.description("L'intitulé de chaque adresse de site.json (emails)."),
      ),
    }),
    support: v.strictObject({ heading: text, paragraphs, button: text }),
    credits: v.strictObject({
      heading: text,
      items: v.pipe(v.array(v.strictObject({ role: text, name: text })), v.minLength(1)),
    }),
  }),
  v.title('Textes de la page À propos'),
  v.description(
    "Tous les textes de la page À propos, dans l'ordre de la page. Les chiffres, adresses et liens viennent de shared/config/site.json.",
  ),
);

/**
 * Timed tracklists (docs/tracklists.md): what an episode played, each row from a time of the replay.
 * Bounds: 200 rows an episode (a three-hour show changes track every minute or so), 5,000 episodes,
 * 200 characters an artist or a title, a time within 24 hours (the server also refuses one at or
 * past the episode's own length). No markup: a `<` or `>` in a name is refused, never escaped later.
 */
export { TRACK_TEXT_MAX };
export const TRACKS_MAX = 200;
export const TRACKLISTS_MAX = 5000;
export const TRACK_START_MAX = 24 * 3600;
/** An episode's slug (docs/episodes.md, « Episodes and slugs »): lower-case words and inner hyphens. */
export const EPISODE_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const trackText = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(TRACK_TEXT_MAX),
  // Control characters (`\p{Cc}`) can break a line of a feed or a chapters file; `<` and `>` are markup.
  v.regex(/^[^<>\p{Cc}]*$/u, 'sans balise ni caractère de contrôle'),
  v.check((text) => text.trim() === text && text !== '', 'sans espace au début ni à la fin'),
);
export const trackSchema = v.strictObject({
  /** Seconds from the replay's start. */
  start: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(TRACK_START_MAX)),
  artist: trackText,
  title: trackText,
  /** A release of the label (its `href` among the releases), when the track is one of them. */
  release: v.optional(v.pipe(v.string(), v.maxLength(200), v.regex(/^\/album\/[a-z0-9]+(-[a-z0-9]+)*$/))),
});
export const tracklistEntrySchema = v.strictObject({
  episode: v.pipe(v.string(), v.maxLength(160), v.regex(EPISODE_SLUG)),
  tracks: v.pipe(
    v.array(trackSchema),
    v.minLength(1),
    v.maxLength(TRACKS_MAX),
    v.check(
      (tracks) => tracks.every((track, index) => index === 0 || track.start > (tracks[index - 1]?.start ?? -1)),
      'les heures de début doivent croître d’une ligne à la suivante',
    ),
  ),
});
export const tracklistsSchema = v.pipe(
  v.array(tracklistEntrySchema),
  v.maxLength(TRACKLISTS_MAX),
  v.check(
    (entries) => new Set(entries.map((entry) => entry.episode)).size === entries.length,
    'une seule liste par émission',
  ),
  v.title('Listes de titres des émissions'),
  v.description(
    "Pour chaque émission (son slug, /emissions/{slug}), les titres joués : l'instant du début en secondes depuis le début du replay, l'artiste, le titre et, pour une sortie du label, son chemin (/album/…).",
  ),
);

/** The most members a goal may name (docs/support.md). */
export const SUPPORT_GOAL_MAX = 100000;

/**
 * The kind `support` (docs/support.md): whether the site takes memberships and gifts through
 * HelloAsso, and the year's membership goal an admin sets. It has no file: it starts on.
 */
export const supportContentSchema = v.pipe(
  v.strictObject({
    helloasso: v.pipe(
      v.boolean(),
      v.description('Adhésions et dons par HelloAsso sur le site (sinon, le lien externe).'),
    ),
    goal: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(SUPPORT_GOAL_MAX),
        v.description("L'objectif d'adhérents de l'année (une barre le montre)."),
      ),
    ),
  }),
  v.title('Nous soutenir'),
  v.description("Les adhésions et dons par HelloAsso, et l'objectif d'adhérents de l'année."),
);

/**
 * The kind `figures` (docs/figures.md): whether the player says how many listen to the live
 * (« 23 à l'écoute »). Admins only; it has no file: it starts off.
 */
export const figuresContentSchema = v.pipe(
  v.strictObject({
    showListeners: v.pipe(
      v.boolean(),
      v.description("Le lecteur affiche le nombre d'auditeurs du direct (« 23 à l'écoute »), à partir de 5."),
    ),
  }),
  v.title('Chiffres'),
  v.description('Ce que le site montre de son audience au public.'),
);

/**
 * The kind `artistMerges` (docs/artists.md, « Merges »): the spellings of a played artist an admin
 * made one page, each merge the canonical page's slug and the other spellings (or their pages'
 * slugs). Bounds: 2,000 merges, 50 spellings a merge, each a tracklist's name (200 characters, no
 * markup, no control character). No file: it starts empty.
 */
export const ARTIST_MERGES_MAX = 2000;
export const ARTIST_MERGE_NAMES_MAX = 50;
/** A played artist's page slug: lower-case ascii words and inner hyphens, 80 characters at most. */
export const PLAYED_ARTIST_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const artistMergesSchema = v.pipe(
  v.array(
    v.strictObject({
      into: v.pipe(
        v.string(),
        v.maxLength(80),
        v.regex(PLAYED_ARTIST_SLUG_PATTERN, 'une adresse d’artiste (minuscules, chiffres et tirets)'),
        v.description("L'adresse de la page qui reste, /artistes/{into}."),
      ),
      names: v.pipe(
        v.array(trackText),
        v.minLength(1),
        v.maxLength(ARTIST_MERGE_NAMES_MAX),
        v.description('Les autres graphies (ou les adresses de leurs pages), réunies sur celle-ci.'),
      ),
    }),
  ),
  v.maxLength(ARTIST_MERGES_MAX),
  v.check(
    (merges) => new Set(merges.map((merge) => merge.into)).size === merges.length,
    'une seule fusion par page d’artiste',
  ),
  v.title('Fusions d’artistes'),
  v.description(
    "Les graphies d'un même artiste joué réunies sur une page : l'adresse de la page qui reste et les autres graphies.",
  ),
);

/** Each content file of the repository and its schema; its `.schema.json` is written beside it. */
export const CONTENT = [
  { file: 'shared/config/site.json', schema: siteConfigSchema },
  { file: 'shared/content/residences.json', schema: residencesSchema },
  { file: 'server/content/releases.json', schema: releasesContentSchema },
  { file: 'server/content/tracklists.json', schema: tracklistsSchema },
  { file: 'server/content/demo-events.json', schema: demoEventsSchema },
  { file: 'mf-radio/content/slides.json', schema: slidesSchema },
  { file: 'mf-about/content/team.json', schema: teamSchema },
  { file: 'mf-about/content/about.json', schema: aboutSchema },
];

/** The French words for what a value failed (Valibot's issue types). */
const EXPECTED = {
  min_length: 'trop court',
  max_length: 'trop long',
  regex: 'forme invalide',
  email: 'adresse e-mail invalide',
  integer: 'nombre entier attendu',
  min_value: 'trop petit',
  max_value: 'trop grand',
};

/**
 * One French line per problem of `data` against `schema`, each naming the field (`/0/id`) and what
 * is wrong; none when it is valid.
 * @param {v.GenericSchema} schema
 * @param {unknown} data
 * @param {string} label
 * @returns {string[]}
 */
export function contentProblems(schema, data, label) {
  const result = v.safeParse(schema, data, { abortPipeEarly: true });
  if (result.success) return [];
  return result.issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join('/');
    const field = path === '' ? '(racine)' : `/${path}`;
    /** @type {string} */
    let what;
    if (issue.type === 'strict_object' && issue.input !== undefined) what = 'champ inconnu';
    else if (issue.kind === 'schema' && issue.input === undefined) what = `champ requis manquant`;
    else if (issue.kind === 'schema') what = `type invalide (attendu : ${String(issue.expected)})`;
    // A check (or a pattern) with a French message of its own says it as it is.
    else if (issue.type === 'check' || !/^Invalid /.test(issue.message)) what = issue.message;
    else
      what = `${EXPECTED[/** @type {keyof typeof EXPECTED} */ (issue.type)] ?? issue.message} (attendu : ${String(issue.expected)})`;
    return `${label}: champ ${field} : ${what}`;
  });
}
