/**
 * Structured data (schema.org, JSON-LD) for the pages the server renders (docs/head.md): what each
 * page is, so that search engines can show it as a radio, a show with its episodes, albums or the
 * collective. Builders return plain objects; headTags writes them.
 */

const CONTEXT = 'https://schema.org';

/** ISO 8601 duration (PT1H2M30S) of a number of seconds; '' for 0 or what is not a finite number. */
export function isoDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  return `PT${hours > 0 ? `${String(hours)}H` : ''}${minutes > 0 ? `${String(minutes)}M` : ''}${rest > 0 || total < 60 ? `${String(rest)}S` : ''}`;
}

/** An ISO date of a feed date, or undefined when it cannot be read. */
function isoDate(date: string | null): string | undefined {
  if (date === null) return undefined;
  const time = Date.parse(date);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export interface RadioStationInput {
  name: string;
  url: string;
  description: string;
  logo: string;
  /** Absolute URL of the live stream. */
  streamUrl: string;
  sameAs: readonly string[];
  email: string;
  address?: string;
}

/** The home page: the radio, whose live stream is listened to at `streamUrl`. */
export function radioStation(input: RadioStationInput) {
  return {
    '@context': CONTEXT,
    '@type': 'RadioStation',
    name: input.name,
    url: input.url,
    description: input.description,
    logo: input.logo,
    image: input.logo,
    email: input.email,
    sameAs: [...input.sameAs],
    ...(input.address === undefined ? {} : { address: { '@type': 'PostalAddress', streetAddress: input.address } }),
    potentialAction: {
      '@type': 'ListenAction',
      target: { '@type': 'EntryPoint', urlTemplate: input.streamUrl, contentType: 'audio/mpeg' },
    },
  };
}

export interface EpisodeInput {
  /** The artist line. */
  title: string;
  /** The show line. */
  description: string;
  /** The audio file. */
  url: string;
  /** The episode's own page. */
  link: string;
  /** Seconds; 0 when unknown. */
  duration: number;
  cover: string;
  pubDate: string | null;
}

export interface RadioSeriesInput {
  name: string;
  url: string;
  description: string;
  image: string;
  artist: string;
  episodes: readonly EpisodeInput[];
}

function episode(item: EpisodeInput) {
  const duration = isoDuration(item.duration);
  const published = isoDate(item.pubDate);
  return {
    '@type': 'RadioEpisode',
    name: item.description.trim() === '' ? item.title : `${item.title} · ${item.description}`,
    url: item.link,
    ...(published === undefined ? {} : { datePublished: published }),
    ...(item.cover === '' ? {} : { image: item.cover }),
    associatedMedia: {
      '@type': 'AudioObject',
      contentUrl: item.url,
      encodingFormat: 'audio/mpeg',
      ...(duration === '' ? {} : { duration }),
    },
  };
}

/** One track an episode played (its tracklist's row). */
export interface TrackInput {
  title: string;
  artist: string;
  /** The page of its release on the label, when it is one. */
  url?: string;
}

export interface EpisodePageInput extends EpisodeInput {
  /** Plain-text description of the episode (its first sentence), when it has one. */
  summary?: string;
  /** The series it belongs to (its residence), when it has one. */
  series?: { name: string; url: string };
  artist: string;
  /** Its tracklist, in time order, when it has one. */
  tracks?: readonly TrackInput[];
}

function musicRecording(track: TrackInput) {
  return {
    '@type': 'MusicRecording',
    name: track.title,
    byArtist: { '@type': 'MusicGroup', name: track.artist },
    ...(track.url === undefined ? {} : { url: track.url }),
  };
}

/** One episode's page: a RadioEpisode with its AudioObject, part of its residence's RadioSeries. */
export function radioEpisode(input: EpisodePageInput) {
  return {
    '@context': CONTEXT,
    ...episode(input),
    ...(input.summary === undefined || input.summary === '' ? {} : { description: input.summary }),
    inLanguage: 'fr',
    actor: { '@type': 'Person', name: input.artist },
    ...(input.series === undefined
      ? {}
      : { partOfSeries: { '@type': 'RadioSeries', name: input.series.name, url: input.series.url } }),
    ...(input.tracks === undefined || input.tracks.length === 0 ? {} : { track: input.tracks.map(musicRecording) }),
  };
}

/** A resident show: the series, its artist, and its episodes in the feed. */
export function radioSeries(input: RadioSeriesInput) {
  const artist = { '@type': 'Person', name: input.artist };
  return {
    '@context': CONTEXT,
    '@type': 'RadioSeries',
    name: input.name,
    url: input.url,
    description: input.description,
    image: input.image,
    actor: artist,
    creator: artist,
    inLanguage: 'fr',
    ...(input.episodes.length === 0 ? {} : { episode: input.episodes.map(episode) }),
  };
}

export interface BroadcastInput {
  name: string;
  /** ISO 8601 with the zone's offset (`2026-11-25T20:00:00+01:00`). */
  startDate: string;
  endDate: string;
  /** The page of the show (its residence's), or the schedule's. */
  url: string;
  /** The station's name and address. */
  station: { name: string; url: string };
}

/** Shows to come on the radio (schema.org's BroadcastEvent), each published on the station. */
export function broadcastEvents(shows: readonly BroadcastInput[]) {
  return shows.map((show) => ({
    '@context': CONTEXT,
    '@type': 'BroadcastEvent',
    name: show.name,
    startDate: show.startDate,
    endDate: show.endDate,
    url: show.url,
    isLiveBroadcast: true,
    inLanguage: 'fr',
    publishedOn: { '@type': 'BroadcastService', name: show.station.name, url: show.station.url },
  }));
}

export interface MusicEventInput {
  name: string;
  /** The event's page. */
  url: string;
  /** ISO 8601 with the zone's offset; a whole day as its date (`2026-12-05`). */
  startDate: string;
  endDate: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  /** Moved from its series' date. */
  rescheduled: boolean;
  description?: string;
  /** Absolute URL of its poster. */
  image?: string;
  location: { name: string; address: string | null; geo: { lat: number; lon: number } | null } | null;
  /** Its tickets' address. */
  tickets: string | null;
  /** Who plays: a residence's page when the name is one. */
  performers: readonly { name: string; url?: string }[];
  organizer: { name: string; url: string };
}

/**
 * One of the collective's events (schema.org's MusicEvent, as Google's event rich results read it):
 * its status (cancelled, moved), held in a place (`Place` with its `PostalAddress`), its tickets as
 * an `Offer`, its performers linked to their residences' pages.
 */
export function musicEvent(input: MusicEventInput) {
  const status =
    input.status === 'cancelled' ? 'EventCancelled' : input.rescheduled ? 'EventRescheduled' : 'EventScheduled';
  const location =
    input.location === null
      ? undefined
      : {
          '@type': 'Place',
          name: input.location.name,
          address: {
            '@type': 'PostalAddress',
            streetAddress: input.location.address ?? input.location.name,
            addressCountry: 'FR',
          },
          ...(input.location.geo === null
            ? {}
            : {
                geo: {
                  '@type': 'GeoCoordinates',
                  latitude: input.location.geo.lat,
                  longitude: input.location.geo.lon,
                },
              }),
        };
  return {
    '@context': CONTEXT,
    '@type': 'MusicEvent',
    name: input.name,
    url: input.url,
    startDate: input.startDate,
    endDate: input.endDate,
    eventStatus: `https://schema.org/${status}`,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    inLanguage: 'fr',
    ...(input.description === undefined || input.description === '' ? {} : { description: input.description }),
    ...(input.image === undefined ? {} : { image: [input.image] }),
    ...(location === undefined ? {} : { location }),
    ...(input.tickets === null
      ? {}
      : {
          offers: {
            '@type': 'Offer',
            url: input.tickets,
            availability: `https://schema.org/${input.status === 'cancelled' ? 'SoldOut' : 'InStock'}`,
          },
        }),
    ...(input.performers.length === 0
      ? {}
      : {
          performer: input.performers.map((performer) => ({
            '@type': 'PerformingGroup',
            name: performer.name,
            ...(performer.url === undefined ? {} : { url: performer.url }),
          })),
        }),
    organizer: { '@type': 'Organization', name: input.organizer.name, url: input.organizer.url },
  };
}

export interface AlbumInput {
  name: string;
  artist: string;
  image: string;
  url: string;
}

/** The label's catalogue: its albums, in the page's order. */
export function musicAlbums({ url, albums }: { url: string; albums: readonly AlbumInput[] }) {
  return {
    '@context': CONTEXT,
    '@type': 'ItemList',
    url,
    numberOfItems: albums.length,
    itemListElement: albums.map((album, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      item: {
        '@type': 'MusicAlbum',
        name: album.name,
        byArtist: { '@type': 'MusicGroup', name: album.artist },
        image: album.image,
        url: album.url,
      },
    })),
  };
}

export interface MusicGroupInput {
  name: string;
  /** Its page on the site. */
  url: string;
  description?: string;
  /** Its other pages (a release's shop, a residence's links): https addresses. */
  sameAs: readonly string[];
}

/** A played artist's page (docs/head.md): the artist, and where else they are on the web. */
export function musicGroup(input: MusicGroupInput) {
  return {
    '@context': CONTEXT,
    '@type': 'MusicGroup',
    name: input.name,
    url: input.url,
    ...(input.description === undefined || input.description === '' ? {} : { description: input.description }),
    ...(input.sameAs.length === 0 ? {} : { sameAs: [...input.sameAs] }),
  };
}

export interface OrganizationInput {
  name: string;
  url: string;
  logo: string;
  email: string;
  sameAs: readonly string[];
  address?: string;
  foundingDate?: string;
}

/** The collective, on the About page. */
export function organization(input: OrganizationInput) {
  return {
    '@context': CONTEXT,
    '@type': 'Organization',
    name: input.name,
    url: input.url,
    logo: input.logo,
    email: input.email,
    sameAs: [...input.sameAs],
    ...(input.address === undefined ? {} : { address: { '@type': 'PostalAddress', streetAddress: input.address } }),
    ...(input.foundingDate === undefined ? {} : { foundingDate: input.foundingDate }),
  };
}

/**
 * The properties each type must carry here (docs/head.md): schema.org's own expectations for these
 * types, with Google's structured data rules where they exist (ItemList, ListItem, Organization).
 */
export const REQUIRED_PROPERTIES: Readonly<Record<string, readonly string[]>> = {
  RadioStation: ['name', 'url', 'potentialAction'],
  BroadcastEvent: ['name', 'startDate', 'publishedOn'],
  BroadcastService: ['name'],
  ListenAction: ['target'],
  EntryPoint: ['urlTemplate'],
  RadioSeries: ['name', 'url'],
  RadioEpisode: ['name', 'url', 'associatedMedia'],
  AudioObject: ['contentUrl'],
  ItemList: ['itemListElement'],
  ListItem: ['position', 'item'],
  MusicAlbum: ['name', 'byArtist'],
  MusicRecording: ['name', 'byArtist'],
  MusicGroup: ['name'],
  Person: ['name'],
  Organization: ['name', 'url'],
  PostalAddress: ['streetAddress'],
  MusicEvent: ['name', 'startDate', 'eventStatus', 'location', 'organizer'],
  Place: ['name', 'address'],
  Offer: ['url'],
  PerformingGroup: ['name'],
  GeoCoordinates: ['latitude', 'longitude'],
};

const empty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The paths of required properties missing or empty in a node and the typed nodes inside it. */
export function missingProperties(node: unknown, path = '$'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => missingProperties(item, `${path}[${String(index)}]`));
  if (typeof node !== 'object' || node === null) return [];
  const record = node as Record<string, unknown>;
  const type = typeof record['@type'] === 'string' ? record['@type'] : undefined;
  const missing = (type === undefined ? [] : (REQUIRED_PROPERTIES[type] ?? []))
    .filter((property) => empty(record[property]))
    .map((property) => `${path}.${property}`);
  return [...missing, ...Object.entries(record).flatMap(([key, value]) => missingProperties(value, `${path}.${key}`))];
}
