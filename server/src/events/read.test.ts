import { hugeCalendar } from '../schedule/test-calendars';
import { readEventCalendar, readEventCalendars, type EventRecord, type EventsReadOptions } from './read';
import { eventsCalendarOf, googleCalendar, nextcloudCalendar, outlookCalendar, TODAY } from './test-calendars';

// The events calendars as events (docs/events.md): every property of RFC 5545 and RFC 7986 the
// site reads, as Google Calendar, Nextcloud and Outlook export them; slugs; hostile calendars.

const RESIDENCES = [
  { id: 'axonberg', artist: 'Axonberg' },
  { id: 'kalibre-mona-vex', artist: 'Kalibre / Mona Vex' },
  { id: 'ruche-sonore', artist: 'Ruche Sonore' },
  { id: 'sirene-basse', artist: 'Sirène Basse' },
  { id: 'gros-calibre', artist: 'Gros Calibre' },
  { id: 'quartz', artist: 'Quartz' },
  { id: 'krypto-kantine', artist: 'Krypto Kantine' },
  { id: 'tic-tac', artist: 'Tic Tac' },
  { id: 'ecume', artist: 'Écume' },
  { id: 'vinyle-vert', artist: 'Vinyle Vert' },
  { id: 'tournesol', artist: 'Tournesol' },
];
const OPTIONS: EventsReadOptions = { today: TODAY, defaultZone: 'Europe/Paris', residences: RESIDENCES };
const read = (text: string, options: Partial<EventsReadOptions> = {}) =>
  readEventCalendar(text, { ...OPTIONS, ...options });
const titled = (events: readonly EventRecord[], title: string): EventRecord => {
  const found = events.find((event) => event.title === title);
  if (found === undefined) throw new Error(`pas d’évènement « ${title} »`);
  return found;
};
const paris = (iso: string) =>
  new Date(iso).toLocaleString('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'short' });

describe('a Google Calendar export', () => {
  const { events, problems } = read(googleCalendar());

  it('reads the event as a volunteer typed it: title, times in Paris, place, text, line-up, tickets, poster', () => {
    expect(problems).toEqual([]);
    const synapses = titled(events, 'Synapses Live : sortie de l’EP');
    expect(synapses).toMatchObject({
      start: '2026-12-05T20:00:00.000Z',
      end: '2026-12-06T02:00:00.000Z',
      allDay: false,
      zone: 'Europe/Paris',
      status: 'confirmed',
      rescheduled: false,
      venue: 'Le Bikini',
      address: 'Rue Théodore Monod, 31520 Ramonville-Saint-Agne, France',
      geo: null,
      // Google has no URL field: the ticket line of the text.
      tickets: 'https://billetterie.example.org/synapses-live',
      // A poster attached from Drive: its thumbnail, which shows it.
      image: 'https://drive.google.com/thumbnail?id=1aBcDeFgHiJkLmNoPqRsTuVwXyZ012345&sz=w1600',
      categories: [],
      lineup: [
        { name: 'Axonberg', residence: 'axonberg' },
        { name: 'Kalibre', residence: 'kalibre-mona-vex' },
        { name: 'DJ Invitée', residence: null },
      ],
    });
    expect(paris(synapses.start)).toBe('05/12/2026 21:00');
    expect(synapses.description).toBe(
      'Axonberg fête la sortie de Synapses EP, avec deux invités.\n\nAvec : Axonberg, Kalibre, DJ Invitée\n\nBillets : https://billetterie.example.org/synapses-live\nOuverture des portes à 21 h.',
    );
    expect(synapses.slug).toMatch(/^2026-12-05-[0-9a-f]{10}$/);
  });

  it('turns a description its editor wrote in HTML into text, links kept as addresses', () => {
    const dub = titled(events, 'Dub au bord de l’eau');
    expect(dub.description).toBe(
      "Fête de la musique en avance au bord de l'eau !\n\navec: Ruche Sonore & Sirène Basse + Gros Calibre\n• Gratuit\n• Réservation : ici (https://billetterie.example.org/fete)",
    );
    expect(dub.lineup.map((artist) => artist.residence)).toEqual(['ruche-sonore', 'sirene-basse', 'gros-calibre']);
    // Summer time: 19:00 in Paris is 17:00 UTC.
    expect(dub.start).toBe('2026-06-13T17:00:00.000Z');
  });

  it('reads an all-day event from midnight to midnight in Paris, its slug on its date; a PDF is no poster', () => {
    expect(titled(events, 'Vide-bacs d’été')).toMatchObject({
      allDay: true,
      start: '2026-07-03T22:00:00.000Z',
      end: '2026-07-05T22:00:00.000Z',
      image: null,
      lineup: [
        { name: 'Vinyle Vert', residence: 'vinyle-vert' },
        { name: 'Tournesol', residence: 'tournesol' },
      ],
    });
    expect(titled(events, 'Vide-bacs d’été').slug.slice(0, 10)).toBe('2026-07-04');
  });
});

describe('a Nextcloud export', () => {
  const { events, problems } = read(nextcloudCalendar());
  const series = events.filter((event) => event.title.startsWith('Les Vendredis Garonne'));

  it('reads RFC 7986 IMAGE, GEO, URL and every CATEGORIES, trimmed and each once', () => {
    expect(problems).toEqual([]);
    expect(series[0]).toMatchObject({
      start: '2026-10-16T18:30:00.000Z',
      venue: 'Le Quai des Sons',
      address: '3 quai de la Daurade, 31000 Toulouse',
      geo: { lat: 43.6008, lon: 1.4393 },
      tickets: 'https://billetterie.example.org/vendredis',
      image: 'https://cloud.example.org/s/vendredis/preview.png',
      categories: ['Techno', 'Electro', 'Club'],
      lineup: [
        { name: 'Quartz', residence: 'quartz' },
        { name: 'Krypto Kantine', residence: 'krypto-kantine' },
        { name: 'Tic Tac', residence: 'tic-tac' },
      ],
    });
  });

  it('says an occurrence cancelled by its override, moves another (rescheduled), and leaves out an EXDATE', () => {
    expect(series.map((event) => [paris(event.start), event.status, event.rescheduled, event.title])).toEqual([
      ['16/10/2026 20:30', 'confirmed', false, 'Les Vendredis Garonne'],
      ['20/11/2026 20:30', 'cancelled', false, 'Les Vendredis Garonne'],
      ['19/12/2026 20:30', 'confirmed', true, 'Les Vendredis Garonne : édition d’hiver'],
    ]);
    // The moved one says its own text; what it leaves out (GEO, IMAGE) is its series'.
    expect(series[2]).toMatchObject({
      lineup: [
        { name: 'Quartz', residence: 'quartz' },
        { name: 'Ecume', residence: 'ecume' },
      ],
      geo: { lat: 43.6008, lon: 1.4393 },
      slug: expect.stringMatching(/^2026-12-19-/) as unknown,
    });
  });

  it('says an event to be confirmed (TENTATIVE); its end from DURATION; a GEO off the Earth is none; a picture of the site is a poster', () => {
    expect(titled(events, 'Plein air techno')).toMatchObject({
      status: 'tentative',
      start: '2027-01-23T13:00:00.000Z',
      end: '2027-01-23T22:00:00.000Z',
      geo: null,
      image: '/assets/images/evenements/plein-air-techno.webp',
      lineup: [
        { name: 'Quartz', residence: 'quartz' },
        { name: 'Invitée Surprise', residence: null },
      ],
    });
  });
});

describe('an Outlook export', () => {
  const { events, problems } = read(outlookCalendar());

  it('reads CRLF and folded lines, and a Windows zone name at the calendar’s hour (Paris), said once', () => {
    expect(problems).toEqual([
      'fuseau horaire inconnu « Romance Standard Time » : heures lues à l’heure de Europe/Paris',
    ]);
    expect(titled(events, 'Nuit électro au Hangar')).toMatchObject({
      start: '2026-11-27T21:00:00.000Z',
      end: '2026-11-28T02:00:00.000Z',
      zone: 'Europe/Paris',
      description: 'Soirée électro au Hangar.\n\nAvec : Quartz, Tic Tac',
    });
  });

  it('reads its HTML copy (X-ALT-DESC) when it gives no DESCRIPTION, and an HTML DESCRIPTION, as text', () => {
    const apero = titled(events, 'Apéro vinyles');
    expect(apero.description).toBe(
      'Les résidents passent leurs disques :\nAvec : Vinyle Vert et Tournesol\nEntrée libre',
    );
    expect(apero.lineup.map((artist) => artist.residence)).toEqual(['vinyle-vert', 'tournesol']);
    // Without DTEND nor DURATION, a timed event ends when it starts.
    expect(apero.end).toBe(apero.start);
    expect(titled(events, 'Concert au Bocal').description).toBe(
      'Concert acoustique.\nAvec : Coquelicot & Mistral Gagnant\nhttps://billetterie.example.org/bocal',
    );
  });
});

describe('slugs', () => {
  const synapses = (text: string) =>
    titled(read(text).events, text.includes('Renommé') ? 'Renommé' : 'Synapses Live : sortie de l’EP');

  it('are the start’s day in Paris and the first 10 hex digits of the SHA-256 of the UID', () => {
    expect(synapses(googleCalendar()).slug).toBe('2026-12-05-6c57534c63');
  });

  it('stay the same when the event is renamed, and keep their fingerprint when it is moved', () => {
    const before = synapses(googleCalendar()).slug;
    expect(synapses(googleCalendar({ summary: 'Renommé' })).slug).toBe(before);
    const moved = synapses(googleCalendar({ start: '20261212T210000', end: '20261213T030000' }));
    expect(moved.slug).toBe(`2026-12-12-${before.slice(11)}`);
    expect(moved.fingerprint).toBe(before.slice(11));
  });

  it('of a series’ occurrence hash the UID and the start it replaces: moving it keeps its fingerprint', () => {
    const december = (text: string) => read(text).events.find((event) => event.rescheduled);
    const saturday = december(nextcloudCalendar());
    const sunday = december(nextcloudCalendar({ moved: '20261220T203000' }));
    expect(saturday?.slug.slice(0, 10)).toBe('2026-12-19');
    expect(sunday?.slug.slice(0, 10)).toBe('2026-12-20');
    expect(sunday?.fingerprint).toBe(saturday?.fingerprint);
    // Each occurrence its own.
    expect(new Set(read(nextcloudCalendar()).events.map((event) => event.fingerprint)).size).toBe(4);
  });

  it('of the same event in two calendars: the first calendar’s is kept, and it is said', () => {
    const { events, problems } = readEventCalendars(
      [googleCalendar(), googleCalendar({ summary: 'Renommé' })],
      OPTIONS,
    );
    expect(events.filter((event) => event.fingerprint === '6c57534c63').map((event) => event.title)).toEqual([
      'Synapses Live : sortie de l’EP',
    ]);
    expect(problems).toEqual([
      '3 évènement(s) déjà lu(s) dans un agenda précédent, laissé(s) de côté : « Dub au bord de l’eau » (2026-06-13-41264ff2ab), « Vide-bacs d’été » (2026-07-04-7b64fdc846), « Renommé » (2026-12-05-6c57534c63)',
    ]);
  });
});

describe('hostile or broken calendars', () => {
  const one = (...lines: string[]) =>
    read(eventsCalendarOf(['UID:h@x', 'DTSTART:20261201T200000Z', 'DURATION:PT2H', ...lines])).events[0];

  it('take no poster but an https picture or one of the site’s', () => {
    for (const poster of [
      'IMAGE;VALUE=URI:javascript:alert(1)',
      'IMAGE;VALUE=URI:data:image/png;base64,iVBORw0KGgo=',
      'IMAGE;VALUE=URI:http://example.org/affiche.png',
      'IMAGE;VALUE=URI;FMTTYPE=image/svg+xml:https://example.org/affiche.svg',
      'IMAGE;VALUE=BINARY;ENCODING=BASE64;FMTTYPE=image/png:iVBORw0KGgo=',
      'IMAGE;VALUE=URI:/assets/images/../../etc/passwd.webp',
      'IMAGE;VALUE=URI://evil.example.org/x.webp',
      'ATTACH;FMTTYPE=application/pdf:https://example.org/x.pdf',
      'ATTACH:https://example.org/x.png',
    ]) {
      expect([poster, one(poster)?.image]).toEqual([poster, null]);
    }
    expect(one('ATTACH;FMTTYPE=image/webp:https://example.org/a.webp')?.image).toBe('https://example.org/a.webp');
  });

  it('take no ticket address but an http(s) one', () => {
    expect(one('URL:javascript:alert(1)')?.tickets).toBeNull();
    expect(one('URL:ftp://example.org/billets')?.tickets).toBeNull();
    expect(one('URL:/billets')?.tickets).toBeNull();
    expect(one('URL:http://example.org/billets')?.tickets).toBe('http://example.org/billets');
    expect(one('DESCRIPTION:Billets : javascript:alert(1)')?.tickets).toBeNull();
  });

  it('keep markup in a title as text, and drop it from a description', () => {
    const event = one('SUMMARY:<script>alert(1)</script> Soirée', 'DESCRIPTION:<script>alert(1)</script><b>Texte</b>');
    expect(event?.title).toBe('<script>alert(1)</script> Soirée');
    expect(event?.description).toBe('Texte');
  });

  it('give a title to an event without one, and read a GEO that is not one as none', () => {
    expect(one('GEO:abc')).toMatchObject({ title: 'Évènement sans titre', geo: null });
  });

  it('read 50,000 events within the limits, and say what they left out', () => {
    const { events, problems } = read(hugeCalendar(TODAY));
    expect(events).toHaveLength(5000);
    expect(problems).toEqual([
      '50000 évènements : seuls les 5000 premiers sont lus',
      'plus de 5000 évènements dans la fenêtre : la suite est ignorée',
    ]);
  });

  it('stop an unbounded series, and read only five years back and two ahead', () => {
    const { events, problems } = read(
      eventsCalendarOf(
        ['UID:a@x', 'DTSTART:20200101T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY', 'SUMMARY:Sans fin'],
        ['UID:b@x', 'DTSTART:20200101T200000Z', 'DURATION:PT1H', 'SUMMARY:Trop ancien'],
        ['UID:c@x', 'DTSTART:20291201T200000Z', 'DURATION:PT1H', 'SUMMARY:Trop loin'],
        ['UID:d@x', 'DTSTART:20220101T200000Z', 'DURATION:PT1H', 'SUMMARY:Il y a moins de cinq ans'],
      ),
    );
    expect(events.map((event) => event.title)).toEqual(['Il y a moins de cinq ans']);
    expect(problems).toEqual(['« Sans fin » : plus de 5000 répétitions, la suite est ignorée']);
  });

  it('refuse what is not a calendar, in French', () => {
    expect(() => read('<html>Erreur</html>')).toThrow(/^calendrier illisible/);
  });
});
