import { TIMESHIFT_HOURS_MAX } from '@collectif/shared/config';
import { deployTokens } from './deploy-tokens';
import {
  address,
  boolean,
  bytes,
  calendarAddresses,
  choice,
  decimal,
  folder,
  httpAddress,
  integer,
  list,
  matching,
  milliseconds,
  origin,
  renditions,
  seconds,
  seconds1,
  secretText,
  text,
  withoutSpace,
  type Kind,
} from './kinds';

/**
 * Every environment variable the site's server, its API and the radio read (docs/settings.md, made
 * from this table by `npm run settings -- --markdown`): declared once, with its kind, its default
 * and an example, read once at start. One rule per kind (booleans, whole numbers, durations, sizes,
 * addresses, lists), with one French message for a refused value: the variable, the value, and
 * what is accepted.
 */

/** A variable of the table. */
export interface Setting<T = unknown> {
  /** Where it belongs, for the list (docs/settings.md). */
  group: 'site' | 'rendering' | 'api' | 'radio' | 'timeshift' | 'demo' | 'limits' | 'development';
  /** What it does, in English (docs/settings.md and `npm run settings`). */
  description: string;
  kind: Kind<T>;
  /** The value when unset or empty, as it would be written; undefined: none (the feature is off). */
  default?: string;
  /** What the default is when it depends on the machine (said, not computed). */
  defaultNote?: string;
  example: string;
  /** A value not shown by `npm run settings` (a secret). */
  secret?: boolean;
}

/**
 * The table. A variable not here is not read by the server; a variable here is read once, at start,
 * by `readSetting` (config.ts for the site, api/env.ts for /api, radio.ts for the radio).
 */
export const SETTINGS = {
  PORT: {
    group: 'site',
    description: 'The port the site listens on.',
    kind: integer(0, 65535),
    default: '8080',
    example: '8080',
  },
  HOST: {
    group: 'site',
    description: 'The address the site listens on.',
    kind: text('une adresse IP ou un nom'),
    default: '0.0.0.0',
    example: '127.0.0.1',
  },
  SITE_ORIGIN: {
    group: 'site',
    description:
      "The site's public origin, for canonical addresses, cards, feeds and JSON-LD; never taken from a request.",
    kind: origin,
    defaultNote: 'http://localhost:PORT',
    example: 'https://radio.example.org',
  },
  EDITOR_ORIGIN: {
    group: 'site',
    description:
      "The volunteers' editor's own origin (docs/content.md, « The editor's origin »): the public host or a sub-domain of it, never the public origin itself. Unset: the editor stays on the public origin.",
    kind: origin,
    example: 'https://edition.radio.example.org',
  },
  LOG_LEVEL: {
    group: 'site',
    description: 'How much the server logs.',
    kind: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    example: 'warn',
  },
  TRUST_PROXY: {
    group: 'site',
    description:
      "Which proxies may tell the visitor's address (X-Forwarded-For): none when unset, a number of hops, or their addresses and ranges.",
    kind: text('un nombre de proxys (0 à 20), des adresses IP ou plages CIDR séparées par des virgules, true ou false'),
    default: 'false',
    example: '127.0.0.1',
  },
  REDIS_URL: {
    group: 'site',
    description:
      "Redis or Valkey shared by several instances (docs/deploy.md, « Redis »). It holds the rate limits' counters (wrong admin tokens included), upstream answers and their locks, the now-playing channel and its backlog, the editors' sessions and passkey ceremonies, each kind's content version (the accounts included) said to every instance, the deploys' live versions and the archives of each part's three newest, the uploaded pictures. Behind a password, as the site's own ACL user, on loopback or a private network (deploy/redis.conf, deploy/redis-collectif.acl).",
    kind: address(['redis:', 'rediss:'], 'redis://hôte:port'),
    example: 'redis://127.0.0.1:6379',
  },
  FIGURES_REDIS_URL: {
    group: 'site',
    description:
      "A second Redis or Valkey that keeps nothing on disk (deploy/redis-figures.conf, deploy/redis-figures.acl), shared by the instances for what names the figures' visitors: the day's salt, the salted names counted and the live's listeners present (docs/figures.md, « Nothing on disk »). Used only while it answers CONFIG GET with no save point and no append-only file; otherwise, or unset, each instance counts its own visitors and REDIS_URL keeps only the day's totals.",
    kind: address(['redis:', 'rediss:'], 'redis://hôte:port'),
    example: 'redis://127.0.0.1:6380',
  },
  DEPLOY_TOKENS: {
    group: 'site',
    description:
      "The teams' deploy tokens, `part:token` pairs separated by commas (one token may be given for several parts); unset: no deploy endpoint.",
    kind: deployTokens,
    example: 'radio:k8Vq3nR7xW2mP9sL4tY6bZ1c,label:h5Jd8fG2qW7eR4tY9uI3oP6a',
    secret: true,
  },
  CONTENT_DIR: {
    group: 'site',
    description:
      'Where the content volunteers edit is kept: one folder of versions per kind, started from the repository’s files (docs/content.md). A backup is a copy of it.',
    kind: text('un dossier'),
    defaultNote: 'server/.content',
    example: '/srv/collectif/contenu',
  },
  FIGURES_DIR: {
    group: 'site',
    description:
      'Where the audience figures are kept: aggregates by show, day and hour, at most 25 months, out of the content’s versions (docs/figures.md). A backup is a copy of it.',
    kind: text('un dossier'),
    defaultNote: 'the folder audience of CONTENT_DIR',
    example: '/srv/collectif/chiffres',
  },
  METRICS_TOKEN: {
    group: 'site',
    description:
      'The admins’ token for GET /metrics from another machine (Authorization: Bearer …); unset, only the loopback may read it (docs/deploy.md, « Metrics »).',
    kind: secretText,
    example: 'un-long-jeton-de-24-caracteres-ou-plus',
    secret: true,
  },
  CONTENT_PICTURE_MAX_BYTES: {
    group: 'site',
    description:
      "The largest picture an editor may upload (JPEG, PNG, WebP or AVIF), before it is re-encoded (docs/content.md, « Pictures »); nginx's `client_max_body_size` for the upload must allow it.",
    kind: bytes(64 * 1024, 100 * 1024 * 1024),
    default: String(10 * 1024 * 1024),
    example: String(20 * 1024 * 1024),
  },
  CONTENT_VERSIONS_KEPT: {
    group: 'site',
    description:
      'The versions of each kind of content kept for its history and its restores; older ones are deleted, never the current one (docs/content.md, « Pruning »).',
    kind: integer(10, 100_000, 'de versions'),
    default: '200',
    example: '500',
  },
  CONTENT_VERSIONS_DAYS: {
    group: 'site',
    description:
      'A version of the content older than this many days is deleted, past the ten newest of its kind (docs/content.md, « Pruning »).',
    kind: integer(1, 36_500, 'de jours'),
    default: '365',
    example: '730',
  },
  EDITOR_IDLE_MIN: {
    group: 'site',
    description: "An editor's session ends after this many minutes without a request (docs/content.md).",
    kind: integer(5, 24 * 60, 'minutes'),
    default: '60',
    example: '30',
  },
  DEPLOY_ROOT: {
    group: 'site',
    description:
      "Where deployed versions are kept, each part's side by side with a `live` link to the one served (with DEPLOY_TOKENS).",
    kind: text('un dossier'),
    defaultNote: 'deploys/ under DIST_ROOT',
    example: '/srv/collectif/deploys',
  },
  DEPLOY_KEEP: {
    group: 'site',
    description: 'How many versions of each part are kept for rollback (the live one always is).',
    kind: integer(2, 50, 'de versions'),
    default: '5',
    example: '10',
  },
  DIST_ROOT: {
    group: 'site',
    description: "Where the parts' built folders are (each part's dist/ under it).",
    kind: text('un dossier'),
    defaultNote: 'the repository',
    example: '/srv/collectif',
  },
  ASSETS_DIR: {
    group: 'site',
    description: "The site's pictures and icons.",
    kind: text('un dossier'),
    defaultNote: 'shared/assets',
    example: '/srv/collectif/assets',
  },
  REMOTES_CONFIG: {
    group: 'site',
    description:
      'Where the browser loads some or all parts from (inline JSON: part → manifest address); wins over REMOTES_CONFIG_FILE.',
    kind: text('un objet JSON { "label": "https://…/mf-manifest.json" }'),
    example: '{"label":"https://cdn.example.org/mf-label/mf-manifest.json"}',
  },
  REMOTES_CONFIG_FILE: {
    group: 'site',
    description: 'The same map, from a JSON file.',
    kind: text('un fichier JSON'),
    example: '/etc/collectif/remotes.json',
  },
  SSR: {
    group: 'rendering',
    description: 'Whether pages are rendered on the server (off: in the browser only).',
    kind: boolean,
    default: 'on',
    example: 'off',
  },
  PAGE_CACHE_TTL_S: {
    group: 'rendering',
    description: 'How long a rendered page is reused for the same address (0: never).',
    kind: seconds(0, 3600),
    default: '10',
    example: '30',
  },
  RENDERERS: {
    group: 'rendering',
    description:
      "How many sandboxed renderer processes each part's lane may run (0: pages render in the server's own process, a debugging aid, refused with DEPLOY_TOKENS).",
    kind: integer(0, 64, 'de processus'),
    defaultNote: 'the cores available but one, at least 1',
    example: '2',
  },
  RENDER_WORKERS: {
    group: 'rendering',
    description: 'The former name of RENDERERS, read when RENDERERS is unset.',
    kind: integer(0, 64, 'de processus'),
    example: '2',
  },
  RENDER_KEEP_ONE: {
    group: 'rendering',
    description:
      "Whether each part's lane keeps one renderer process when it has had no page for RENDER_IDLE_S (its other ones stop): the first page after quiet minutes then waits for no renderer to start. Off: a site nobody visits holds the server's process alone.",
    kind: boolean,
    default: 'on',
    example: 'off',
  },
  RENDER_RECYCLE_AFTER: {
    group: 'rendering',
    description: 'After how many redeployed server containers loaded a renderer process is replaced.',
    kind: integer(1, 10_000, "d'évaluations"),
    default: '100',
    example: '50',
  },
  RENDER_IDLE_S: {
    group: 'rendering',
    description:
      "How long a part's renderer processes are kept without a page of that part; they start again with its next page.",
    kind: seconds(1, 86_400),
    default: '300',
    example: '600',
  },
  RENDER_TRIAL_S: {
    group: 'rendering',
    description:
      "How long a part's new server container may take on its trial (evaluated, each page rendered once) before it is refused.",
    kind: seconds(1, 300),
    default: '15',
    example: '30',
  },
  SOUNDCLOUD_RSS_URL: {
    group: 'api',
    description: "The collective's SoundCloud feed (unset: the embedded demo feed).",
    kind: httpAddress,
    example: 'https://feeds.soundcloud.com/users/soundcloud:users:1/sounds.rss',
  },
  SOUNDCLOUD_RSS_MAX_PAGES: {
    group: 'api',
    description: 'How many pages of the feed are followed.',
    kind: integer(1, 20, 'de pages'),
    default: '1',
    example: '5',
  },
  SOUNDCLOUD_CLIENT_ID: {
    group: 'api',
    description: 'SoundCloud API client, for track streams (with its secret).',
    kind: text('un identifiant'),
    example: 'abc123',
    secret: true,
  },
  SOUNDCLOUD_CLIENT_SECRET: {
    group: 'api',
    description: 'Its secret.',
    kind: text('un secret'),
    example: 'xyz789',
    secret: true,
  },
  SOUNDCLOUD_API_URL: {
    group: 'api',
    description: "SoundCloud's API.",
    kind: httpAddress,
    default: 'https://api.soundcloud.com',
    example: 'https://api.soundcloud.com',
  },
  SOUNDCLOUD_AUTH_URL: {
    group: 'api',
    description: "SoundCloud's token endpoint.",
    kind: httpAddress,
    default: 'https://secure.soundcloud.com/oauth/token',
    example: 'https://secure.soundcloud.com/oauth/token',
  },
  TWITCH_CLIENT_ID: {
    group: 'api',
    description: 'Twitch API client, for the live status (with its secret).',
    kind: text('un identifiant'),
    example: 'abc123',
    secret: true,
  },
  TWITCH_CLIENT_SECRET: {
    group: 'api',
    description: 'Its secret.',
    kind: text('un secret'),
    example: 'xyz789',
    secret: true,
  },
  TWITCH_API_URL: {
    group: 'api',
    description: "Twitch's Helix API.",
    kind: httpAddress,
    default: 'https://api.twitch.tv/helix',
    example: 'https://api.twitch.tv/helix',
  },
  TWITCH_AUTH_URL: {
    group: 'api',
    description: "Twitch's token endpoint.",
    kind: httpAddress,
    default: 'https://id.twitch.tv/oauth2/token',
    example: 'https://id.twitch.tv/oauth2/token',
  },
  HELLOASSO_CLIENT_ID: {
    group: 'api',
    description:
      "HelloAsso's API client, for memberships and gifts (docs/support.md; with its secret, the organisation, both forms and the notifications' key). Unset: the demo's HelloAsso, served by the site itself, except where the site is deployed for real (an https SITE_ORIGIN, or DEPLOY_TOKENS), where « Nous soutenir » is site.json's external link.",
    kind: matching('un identifiant', /^[\w-]{1,200}$/),
    example: '0123456789abcdef',
    secret: true,
  },
  HELLOASSO_CLIENT_SECRET: {
    group: 'api',
    description: 'Its secret: it never leaves the server.',
    kind: withoutSpace('un secret', 500),
    example: 'xyz789',
    secret: true,
  },
  HELLOASSO_ORGANIZATION: {
    group: 'api',
    description: "The association's slug on HelloAsso.",
    kind: matching('un slug HelloAsso (lettres minuscules, chiffres, tirets)', /^[a-z0-9-]{1,200}$/),
    example: 'collectif-radio',
  },
  HELLOASSO_MEMBERSHIP_FORM: {
    group: 'api',
    description: "The slug of the year's membership form (its tiers, its orders: the year's members).",
    kind: matching('un slug HelloAsso (lettres minuscules, chiffres, tirets)', /^[a-z0-9-]{1,200}$/),
    example: 'adhesion-2026',
  },
  HELLOASSO_DONATION_FORM: {
    group: 'api',
    description: 'The slug of the donation form (a monthly gift goes to its own page).',
    kind: matching('un slug HelloAsso (lettres minuscules, chiffres, tirets)', /^[a-z0-9-]{1,200}$/),
    example: 'dons',
  },
  HELLOASSO_NOTIFICATION_KEY: {
    group: 'api',
    description:
      "The secret in the address HelloAsso notifies, https://<site>/api/support/notifications/<key> (set in the association's HelloAsso account, docs/support.md, « Notifications »): a notification to another address is refused before HelloAsso's API is asked anything. Required with the five others; 24 to 200 letters, digits, - or _.",
    kind: matching('24 à 200 lettres, chiffres, - ou _', /^[\w-]{24,200}$/),
    example: 'k3Vn8Qw2Rt6Yp9Ls4Hx7Bc1Md',
    secret: true,
  },
  HELLOASSO_API_URL: {
    group: 'api',
    description:
      "HelloAsso's API: production, or its sandbox (https://api.helloasso-sandbox.com); the token is asked at /oauth2/token under it.",
    kind: httpAddress,
    default: 'https://api.helloasso.com',
    example: 'https://api.helloasso-sandbox.com',
  },
  SUPPORT_TAX_RECEIPT: {
    group: 'api',
    description:
      'Whether the support page says gifts give a tax receipt: only an association of general interest may issue one.',
    kind: boolean,
    default: 'off',
    example: 'on',
  },
  PUSH_VAPID_PUBLIC_KEY: {
    group: 'api',
    description:
      "« Me prévenir »'s VAPID key pair (docs/push.md, « Keys »), as `npx web-push generate-vapid-keys` prints it: the public key, which browsers get to subscribe. With the private key and PUSH_VAPID_SUBJECT, or none of the three: then the demo makes its own pair in CONTENT_DIR (push-vapid.json), except where the site is deployed for real (an https SITE_ORIGIN, or DEPLOY_TOKENS), where « Me prévenir » is off and says so. A new pair ends every subscription: keep it.",
    kind: matching('une clé publique P-256 en base64url (87 caractères)', /^[\w-]{87}$/),
    example: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  },
  PUSH_VAPID_PRIVATE_KEY: {
    group: 'api',
    description: 'Its private key: it never leaves the server.',
    kind: matching('une clé privée P-256 en base64url (43 caractères)', /^[\w-]{43}$/),
    example: 'IQ9Ur0ykXoHS9gzfYX0aBjDhSaXkS8ZG6n1xK2iR8oA',
    secret: true,
  },
  PUSH_VAPID_SUBJECT: {
    group: 'api',
    description:
      'Who sends, for the push services (RFC 8292): a mailto: address or an https page where the collective can be reached.',
    kind: matching('une adresse mailto: ou https:', /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 200),
    example: 'mailto:radio@collectif.example.org',
  },
  PUSH_SERVICES: {
    group: 'api',
    description:
      "Push services allowed beside the browsers' own (fcm.googleapis.com, updates.push.services.mozilla.com, web.push.apple.com, *.notify.windows.com): host or host:port, for a self-hosted push service. The admins vouch for them: such a host may be on the collective's own network, which no other endpoint may reach.",
    kind: list(
      matching('un nom d’hôte, ou hôte:port', /^[a-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9a-f:]{2,39}\](:\d{1,5})?$/i),
      10,
    ),
    example: 'push.collectif.example.org',
  },
  PUSH_STORE_MB: {
    group: 'limits',
    description:
      "The memory « Me prévenir »'s subscriptions may take, in MB, counted by each one's cost (twice its JSON, and 512 bytes): a new one past it is refused in French (503 with Retry-After) and none kept is lost. 40 MB hold about 25,000 subscriptions of a few residences, and 3,200 of the largest; with the proposals' 40 it leaves most of the server's 256 MB heap (docs/rendering.md) to the rest.",
    kind: integer(1, 4096),
    default: '40',
    example: '40',
  },
  PUSH_SUBSCRIPTION_DAYS: {
    group: 'limits',
    description:
      "Days a « Me prévenir » subscription is kept after its browser last saved or renewed it (the site's worker renews it about once a month, and when the push service changes it); past them it expires.",
    kind: integer(31, 3650),
    default: '180',
    example: '180',
  },
  PUSH_SUBSCRIPTIONS_PER_WIDE_NETWORK: {
    group: 'limits',
    description:
      'New « Me prévenir » subscriptions a wider network may make per day (an IPv6 /48, a site’s allocation of 65,536 /64s; an IPv4 /24), beside the bound per network, counted across the instances.',
    kind: integer(1, 100_000),
    default: '120',
    example: '120',
  },
  PUSH_SUBSCRIPTIONS_PER_NETWORK: {
    group: 'limits',
    description:
      'New « Me prévenir » subscriptions a visitor’s network may make per day (an IPv6 /64, an IPv4 address), counted across the instances; changing the residences of one is not counted.',
    kind: integer(1, 10_000),
    default: '30',
    example: '30',
  },
  SMTP_HOST: {
    group: 'api',
    description:
      "The mail server that sends the proposals' e-mails (docs/proposals.md, « E-mail »): to the collective's address of each kind, and the acknowledgement to the proposer. Unset: no e-mail is sent (the demo), the proposals are kept all the same and the editor says so.",
    kind: matching('un nom d’hôte ou une adresse IP', /^[a-z0-9.:[\]-]{1,253}$/i),
    example: 'smtp.collectif.example.org',
  },
  SMTP_PORT: {
    group: 'api',
    description: 'Its port: 587 (STARTTLS) or 465 (TLS from the start, with SMTP_SECURE on).',
    kind: integer(1, 65_535),
    default: '587',
    example: '465',
  },
  SMTP_SECURE: {
    group: 'api',
    description:
      'Whether the connection is TLS from its start (port 465); off: plain, upgraded by STARTTLS whenever the server offers it.',
    kind: boolean,
    default: 'off',
    example: 'on',
  },
  SMTP_USER: {
    group: 'api',
    description: 'The account on the mail server (unset: no authentication).',
    kind: withoutSpace('un identifiant sans espace', 254),
    example: 'radio@collectif.example.org',
  },
  SMTP_PASSWORD: {
    group: 'api',
    description: 'Its password.',
    kind: text('un mot de passe'),
    example: 'mot-de-passe-du-serveur-de-courrier',
    secret: true,
  },
  SMTP_FROM: {
    group: 'api',
    description:
      "The sender of the proposals' e-mails, an address the mail server may send from. Unset: SMTP_USER when it is an address, else the site's contact address (shared/config/site.json, emails.contact).",
    kind: matching('une adresse e-mail', /^[^\s@<>"]{1,64}@[^\s@<>"]{1,189}$/),
    example: 'radio@collectif.example.org',
  },
  PROPOSALS_SHOWS_EMAIL: {
    group: 'api',
    description:
      "Where each new show proposal (« Proposer une émission ») is sent. Unset: the shows' address of the site's configuration (shared/config/site.json, emails.shows).",
    kind: matching('une adresse e-mail', /^[^\s@<>"]{1,64}@[^\s@<>"]{1,189}$/),
    example: 'emissions@collectif.example.org',
  },
  PROPOSALS_LABEL_EMAIL: {
    group: 'api',
    description:
      "Where each new demo (« Envoyer une démo ») is sent. Unset: the label's demo address of the site's configuration (emails.labelDemos).",
    kind: matching('une adresse e-mail', /^[^\s@<>"]{1,64}@[^\s@<>"]{1,189}$/),
    example: 'demos@collectif.example.org',
  },
  PROPOSALS_MAIL_TRIES: {
    group: 'api',
    description:
      "Tries of each proposal's e-mail before it is given up (counted failed in /metrics; the proposal is kept), the wait doubling from 30 s to one hour between them.",
    kind: integer(1, 50),
    default: '10',
    example: '10',
  },
  PROPOSALS_PER_NETWORK: {
    group: 'limits',
    description:
      "Proposals a network (an IPv6 /64, an IPv4 address) may send a day with the page's script (the proof of work solved), counted across the instances.",
    kind: integer(1, 1000),
    default: '5',
    example: '5',
  },
  PROPOSALS_PER_NETWORK_FORM: {
    group: 'limits',
    description:
      'The same for the form sent without JavaScript (its single-use token instead of the proof of work): stricter, and counted with the others.',
    kind: integer(1, 1000),
    default: '2',
    example: '2',
  },
  PROPOSALS_PER_WIDE_NETWORK: {
    group: 'limits',
    description:
      'Proposals a wider network may send a day (an IPv6 /48, a site’s allocation of 65,536 /64s; an IPv4 /24), beside the bound per network, counted across the instances.',
    kind: integer(1, 10_000),
    default: '20',
    example: '20',
  },
  PROPOSALS_STORE_MB: {
    group: 'limits',
    description:
      "The memory the proposals may take, in MB, counted by each one's cost (twice its JSON, and 512 bytes; one proposal with its notes at most 64 KB): a new one past it is refused in French (503 with Retry-After) and none kept is lost. 40 MB hold about 2,500 of the largest, 15,000 of the usual size; with the subscriptions' 40 it leaves most of the server's 256 MB heap (docs/rendering.md) to the rest.",
    kind: integer(1, 4096),
    default: '40',
    example: '40',
  },
  AZURACAST_NOWPLAYING_URL: {
    group: 'api',
    description: "AzuraCast's now-playing answer (unset: the demo rotation).",
    kind: httpAddress,
    example: 'https://radio.example.org/api/nowplaying/collectif',
  },
  ICECAST_STATUS_URL: {
    group: 'api',
    description:
      "Icecast's statistics (/status-json.xsl, or /admin/stats with ICECAST_ADMIN_PASSWORD), read each minute for the live's listeners (docs/figures.md); unset: not read.",
    kind: httpAddress,
    example: 'http://127.0.0.1:8000/status-json.xsl',
  },
  ICECAST_ADMIN_PASSWORD: {
    group: 'api',
    description:
      "Icecast's admin password, sent to ICECAST_STATUS_URL when it is /admin/stats (Debian's Icecast 2.4.4 writes broken JSON at /status-json.xsl once a source is up).",
    kind: withoutSpace('un mot de passe sans espace', 200),
    example: 'mot-de-passe-admin',
    secret: true,
  },
  SCHEDULE_ICS_URLS: {
    group: 'api',
    description: "The collective's calendars for the programme (webcal: accepted; unset: the demo's).",
    kind: calendarAddresses,
    example: 'https://calendar.example.org/radio.ics',
  },
  EVENTS_ICS_URLS: {
    group: 'api',
    description:
      "The collective's calendars of parties and concerts, for the events (webcal: accepted; unset: the demo's).",
    kind: calendarAddresses,
    example: 'https://calendar.example.org/evenements.ics',
  },
  ADMIN_TOKEN: {
    group: 'api',
    description:
      "Bearer token with an admin's rights: every editor's right on the content (every kind, the accounts and invitations, pictures, restores), and the demo's live switch (POST /api/admin/live); 24 characters or more, like the deploy tokens. Unset: only signed-in editors write.",
    kind: secretText,
    example: 'q7Rt2mX9vL4pW8sK3nB6yH1c',
    secret: true,
  },
  SITE_SECRET: {
    group: 'api',
    description:
      "The instances' shared key, kept in their settings and never in Redis; 24 characters or more. Sessions are kept in Redis under a keyed hash of their id, and each content version (the accounts included) said through Redis is signed with it: whoever reads Redis cannot use a session, whoever writes to it can neither make one nor slip in an account. Required with REDIS_URL; unset without it, each process draws its own.",
    kind: secretText,
    example: 'Zp4nVq8Rw2Ls6Tk9Hx3Mc7Bd',
    secret: true,
  },
  FEED_TTL_S: { group: 'api', description: 'How long the feed is kept.', ...seconds1(300, 86_400), example: '600' },
  ISLIVE_TTL_S: {
    group: 'api',
    description: 'How long the live status is kept.',
    ...seconds1(30, 3600),
    example: '60',
  },
  NOWPLAYING_TTL_S: {
    group: 'api',
    description: 'How long the now-playing answer is kept.',
    ...seconds1(15, 3600),
    example: '30',
  },
  TRACK_TTL_S: {
    group: 'api',
    description: "How long a track's stream address is kept.",
    ...seconds1(300, 86_400),
    example: '600',
  },
  SCHEDULE_TTL_S: {
    group: 'api',
    description: 'How long the calendars are kept.',
    ...seconds1(300, 86_400),
    example: '600',
  },
  EVENTS_TTL_S: {
    group: 'api',
    description: 'How long the events calendars are kept.',
    ...seconds1(300, 86_400),
    example: '600',
  },
  UPSTREAM_TIMEOUT_MS: {
    group: 'api',
    description: 'How long an upstream may take to answer.',
    kind: milliseconds(100, 120_000),
    default: '5000',
    example: '3000',
  },
  UPSTREAM_MAX_BYTES: {
    group: 'api',
    description: 'The largest answer read from an upstream.',
    kind: bytes(1024, 512 * 1024 * 1024),
    default: String(10 * 1024 * 1024),
    example: '20971520',
  },
  LIVE_STREAM_URL: {
    group: 'radio',
    description: 'The live stream the player plays (wins over RADIO_CONFIG_FILE and site.json).',
    kind: text('une adresse https:// ou un chemin commençant par /'),
    defaultNote: "site.json's",
    example: 'https://stream.example.org/live.mp3',
  },
  CHAT_EMBED_URL: {
    group: 'radio',
    description: "The chat's frame address, with {room} for the room.",
    kind: text('une adresse https:// contenant {room}'),
    defaultNote: "site.json's",
    example: 'https://minnit.chat/{room}?embed',
  },
  CHAT_ROOM: {
    group: 'radio',
    description: "The chat's room.",
    kind: text('un nom de salon non vide'),
    defaultNote: "site.json's",
    example: 'collectif',
  },
  TWITCH_CHANNEL: {
    group: 'radio',
    description: 'The Twitch channel whose live status the site shows.',
    kind: text('un nom de chaîne Twitch'),
    defaultNote: "site.json's",
    example: 'collectif',
  },
  LIVE_RENDITIONS: {
    group: 'radio',
    description:
      "The radio's mounts, a JSON list (docs/settings.md, « The radio »): each an `id` (lower-case letters, digits, hyphens), a French `label` the player's « Qualité » shows, a `url` (https:// or a path of the site), a `bitrate` in kb/s and a `codec` (mp3). The first is the normal one: its `url` is LIVE_STREAM_URL, which it sets when that is unset.",
    kind: renditions,
    defaultNote: "site.json's (the demo's « Normale » and « Économe »), or the live stream alone when it is another",
    example:
      '[{"id":"normale","label":"Normale","url":"https://stream.example.org/live.mp3","bitrate":128,"codec":"mp3"},{"id":"econome","label":"Économe","url":"https://stream.example.org/econome.mp3","bitrate":48,"codec":"mp3"}]',
  },
  RADIO_CONFIG_FILE: {
    group: 'radio',
    description: "The radio's settings from a JSON file (the variables above win over it).",
    kind: text('un fichier JSON'),
    example: '/etc/collectif/radio.json',
  },
  LIVE_TIMESHIFT_HOURS: {
    group: 'timeshift',
    description:
      'The hours of the live stream the site keeps for listening back (docs/settings.md, « Listening back »); 0 turns it off, as a radio whose licence does not cover listening back must.',
    kind: decimal(0, TIMESHIFT_HOURS_MAX, "d'heures"),
    default: '4',
    example: '2.5',
  },
  LIVE_TIMESHIFT_DIR: {
    group: 'timeshift',
    description:
      'The folder of the kept segments and playlists, served at /direct/ (by nginx in production); the systemd unit must let the site write there.',
    kind: folder,
    defaultNote: 'server/.timeshift',
    example: '/srv/collectif/direct',
  },
  LIVE_TIMESHIFT_SEGMENT_S: {
    group: 'timeshift',
    description: 'The length of each kept segment, in seconds: longer ones make a lighter playlist.',
    kind: integer(2, 30, 'de secondes'),
    default: '10',
    example: '6',
  },
  LIVE_ARCHIVE: {
    group: 'timeshift',
    description:
      "Whether each live show is kept as a replay when its programme slot ends (docs/archive.md): `off`, as a residence may not hold the rights to publish its show; `chosen`, each residence's choice in the editor; `all`, a station holding the rights for every show. Unset under the demo (no SCHEDULE_ICS_URLS, not deployed), the demo keeps one residence's shows.",
    kind: choice(['off', 'chosen', 'all'] as const),
    defaultNote: 'off (the demo: one residence)',
    example: 'chosen',
  },
  LIVE_ARCHIVE_DIR: {
    group: 'timeshift',
    description:
      'The folder of the live archives (an MP3, a playlist and a record each), served at /archives/ (by nginx in production); shared by the instances, the systemd unit must let the site write there.',
    kind: folder,
    defaultNote: 'LIVE_TIMESHIFT_DIR-archives, beside it',
    example: '/srv/collectif/archives',
  },
  LIVE_ARCHIVE_DAYS: {
    group: 'timeshift',
    description: 'Days a live archive is kept after its slot ended; then it goes, published or not.',
    kind: integer(1, 3650, 'de jours'),
    default: '90',
    example: '365',
  },
  LIVE_ARCHIVE_MAX_MB: {
    group: 'timeshift',
    description:
      'The disk the live archives may take together, in MB (a two-hour show at 128 kb/s is 115 MB): past it the oldest unpublished go first, then the oldest.',
    kind: integer(100, 10_000_000, 'de Mo'),
    default: '20000',
    example: '50000',
  },
  LIVE_ARCHIVE_FREE_MB: {
    group: 'timeshift',
    description:
      "The disk space a new live archive must leave free, in MB: below it the archive is refused and logged, so that the timeline's segments and the rest of the site keep their room.",
    kind: integer(0, 1_000_000, 'de Mo'),
    default: '1024',
    example: '4096',
  },
  DEMO_LIVE: {
    group: 'demo',
    description: 'The demo live status at start (the admin route switches it).',
    kind: boolean,
    default: 'off',
    example: 'on',
  },
  DEMO_ROTATION_S: {
    group: 'demo',
    description: 'How long each demo show stays on air.',
    ...seconds1(180, 86_400),
    example: '60',
  },
  EDITOR_SIGNIN_PER_MIN: {
    group: 'limits',
    description: 'Passkey sign-in and invitation attempts a client may make a minute (docs/content.md).',
    kind: integer(1, 1000),
    default: '10',
    example: '20',
  },
  EDITOR_WRITES_PER_MIN: {
    group: 'limits',
    description:
      'Saves and restores of the content one editor account may make a minute, counted across the instances (docs/content.md, « Bounds »).',
    kind: integer(1, 1000),
    default: '20',
    example: '30',
  },
  EDITOR_PREVIEWS_PER_MIN: {
    group: 'limits',
    description: 'Previews one editor account may ask for a minute, counted across the instances (docs/content.md).',
    kind: integer(1, 1000),
    default: '60',
    example: '120',
  },
  EDITOR_UPLOADS_PER_MIN: {
    group: 'limits',
    description: 'Pictures one editor account may upload a minute, counted across the instances (docs/content.md).',
    kind: integer(1, 1000),
    default: '10',
    example: '20',
  },
  CONTENT_PICTURE_UPLOADS: {
    group: 'limits',
    description:
      'Picture uploads an instance holds at once (received, waiting for their turn, or converted to WebP one at a time); past it, 503 (docs/content.md, « Uploading »).',
    kind: integer(1, 100, "d'envois"),
    default: '4',
    example: '8',
  },
  RATE_LIMIT_TRACK_PER_MIN: {
    group: 'limits',
    description: 'Track stream addresses a visitor may ask a minute.',
    kind: integer(1, 100_000),
    default: '60',
    example: '120',
  },
  RATE_LIMIT_SSE_PER_MIN: {
    group: 'limits',
    description: 'Now-playing connections a visitor may open a minute.',
    kind: integer(1, 100_000),
    default: '20',
    example: '40',
  },
  SSE_MAX_PER_CLIENT: {
    group: 'limits',
    description: 'Now-playing connections a visitor may hold at once.',
    kind: integer(1, 1000),
    default: '5',
    example: '10',
  },
  FIGURES_BEACONS_PER_MIN: {
    group: 'limits',
    description: 'Audience beacons one address may send a minute, counted across the instances (docs/figures.md).',
    kind: integer(1, 1000),
    default: '30',
    example: '60',
  },
  FIGURES_SAMPLE_SECONDS: {
    group: 'limits',
    description:
      'How often the live’s listeners are sampled, in seconds: each sample reads AzuraCast’s or Icecast’s count and the site’s own, and « N à l’écoute » changes only then (docs/figures.md).',
    kind: seconds(5, 300),
    default: '60',
    example: '30',
  },
  DEMO_LIVE_MAX_LISTENERS: {
    group: 'limits',
    description: 'Listeners of the demo live stream at once.',
    kind: integer(1, 100_000),
    default: '200',
    example: '500',
  },
  DEV_REMOTES: {
    group: 'development',
    description: 'Set by npm run dev: the remotes served by their webpack dev servers (JSON: part → origin).',
    kind: text('un objet JSON { "radio": "http://127.0.0.1:3002" }'),
    example: '{"radio":"http://127.0.0.1:3002"}',
  },
} satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;
