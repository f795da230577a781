// Events calendars for the events' tests and bench/events.mjs (not a test file: imported by them),
// shaped like the exports of the programs the collective's volunteers use: Google Calendar,
// Nextcloud and Outlook. Read on 23 November 2026 (TODAY).

import { PARIS_VTIMEZONE } from '../schedule/ics';

/** The day the tests read the calendars on. */
export const TODAY = Date.UTC(2026, 10, 23);

const crlf = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

/** The Paris zone as Google's and Nextcloud's exports write it: the site's own (schedule/ics.ts). */
const PARIS = PARIS_VTIMEZONE.split('\r\n');

/**
 * A Google Calendar export: X-WR-TIMEZONE and its VTIMEZONE, descriptions with `\n` escapes (and
 * one in HTML, as its editor writes a formatted text, with its redirected links), posters attached
 * from Drive (ATTACH with FMTTYPE), ticket links in the text (Google has no URL field), an all-day
 * event, folded lines. `summary` and `start` let a test rename or move the first event.
 */
export function googleCalendar({
  summary = 'Synapses Live : sortie de l’EP',
  start = '20261205T210000',
  end = '20261206T030000',
} = {}): string {
  return crlf([
    'BEGIN:VCALENDAR',
    'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Collectif Garonne · soirées',
    'X-WR-TIMEZONE:Europe/Paris',
    'X-WR-CALDESC:Les soirées et concerts du collectif',
    ...PARIS,
    'BEGIN:VEVENT',
    `DTSTART;TZID=Europe/Paris:${start}`,
    `DTEND;TZID=Europe/Paris:${end}`,
    'DTSTAMP:20261120T101500Z',
    'UID:6kq3c1h2p8o4b9r0l7s5m2n1v0@google.com',
    'ATTACH;FILENAME=affiche-synapses.jpg;FMTTYPE=image/jpeg:https://drive.google.',
    ' com/open?id=1aBcDeFgHiJkLmNoPqRsTuVwXyZ012345',
    'CREATED:20261101T090000Z',
    'DESCRIPTION:Axonberg fête la sortie de Synapses EP\\, avec deux invités.\\n\\',
    ' nAvec : Axonberg\\, Kalibre\\, DJ Invitée\\n\\nBillets : https://billetterie.',
    ' example.org/synapses-live\\nOuverture des portes à 21 h.',
    'LAST-MODIFIED:20261120T101500Z',
    'LOCATION:Le Bikini\\, Rue Théodore Monod\\, 31520 Ramonville-Saint-Agne\\, Fr',
    ' ance',
    'SEQUENCE:0',
    'STATUS:CONFIRMED',
    `SUMMARY:${summary}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'DTSTART;TZID=Europe/Paris:20260613T190000',
    'DTEND;TZID=Europe/Paris:20260614T010000',
    'DTSTAMP:20261120T101500Z',
    'UID:0p1o2i3u4y5t6r7e8z9a@google.com',
    'CREATED:20260501T090000Z',
    'DESCRIPTION:<b>Fête de la musique</b> en avance au bord de l&#39;eau&nbsp;!<',
    ' br><br>avec: Ruche Sonore &amp; Sirène Basse + Gros Calibre<br><ul><li>Gr',
    ' atuit</li><li>Réservation : <a href="https://www.google.com/url?q=https://',
    ' billetterie.example.org/fete&amp;sa=D&amp;source=calendar&amp;ust=1">ici</a',
    ' ></li></ul>',
    'LAST-MODIFIED:20260601T101500Z',
    'LOCATION:Port de la Daurade\\, 1 quai de la Daurade\\, 31000 Toulouse',
    'SEQUENCE:1',
    'STATUS:CONFIRMED',
    'SUMMARY:Dub au bord de l’eau',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'DTSTART;VALUE=DATE:20260704',
    'DTEND;VALUE=DATE:20260706',
    'DTSTAMP:20261120T101500Z',
    'UID:4r5t6y7u8i9o0p@google.com',
    'ATTACH;FILENAME=programme.pdf;FMTTYPE=application/pdf:https://drive.google.c',
    ' om/open?id=9zYxWvUtSrQpOnMlKjIhGfEdCbA98765',
    'DESCRIPTION:Deux jours de vide-bacs.\\nLine-up : Vinyle Vert / Tournesol',
    'LOCATION:Halle aux Disques\\, 12 rue Pargaminières\\, 31000 Toulouse',
    'STATUS:CONFIRMED',
    'SUMMARY:Vide-bacs d’été',
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
    'END:VCALENDAR',
  ]);
}

/**
 * A Nextcloud export: RFC 7986 IMAGE and GEO, CATEGORIES written twice, STATUS, URL, a monthly
 * series whose December occurrence is moved to the next day (RECURRENCE-ID) and whose November one
 * is cancelled by an override (STATUS:CANCELLED), an occurrence removed by EXDATE, and an event to
 * be confirmed (TENTATIVE). `moved` is the December occurrence's start.
 */
export function nextcloudCalendar({ moved = '20261219T203000' } = {}): string {
  return crlf([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//IDN nextcloud.com//Calendar app 4.7.6//EN',
    'CALSCALE:GREGORIAN',
    'X-WR-CALNAME:Concerts',
    'X-APPLE-CALENDAR-COLOR:#E7A700',
    ...PARIS,
    'BEGIN:VEVENT',
    'CREATED:20261012T083000Z',
    'DTSTAMP:20261118T160000Z',
    'LAST-MODIFIED:20261118T160000Z',
    'SEQUENCE:3',
    'UID:3c7e6f1a-9b2d-4c8e-a1f0-5d6e7f8a9b0c',
    'DTSTART;TZID=Europe/Paris:20261016T203000',
    'DTEND;TZID=Europe/Paris:20261016T235900',
    'STATUS:CONFIRMED',
    'SUMMARY:Les Vendredis Garonne',
    'LOCATION:Le Quai des Sons\\n3 quai de la Daurade\\n31000 Toulouse',
    'GEO:43.6008;1.4393',
    'CATEGORIES:Techno,Electro',
    'CATEGORIES:techno,,Club ',
    'IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/png:https://cloud.example.org/s/',
    ' vendredis/preview.png',
    'URL;VALUE=URI:https://billetterie.example.org/vendredis',
    'DESCRIPTION:Chaque troisième vendredi.\\n\\nAVEC - Quartz · Krypto Kantine e',
    ' t Tic Tac',
    'RRULE:FREQ=MONTHLY;BYDAY=3FR;COUNT=4',
    'EXDATE;TZID=Europe/Paris:20270115T203000',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'CREATED:20261012T083000Z',
    'DTSTAMP:20261118T160000Z',
    'UID:3c7e6f1a-9b2d-4c8e-a1f0-5d6e7f8a9b0c',
    'RECURRENCE-ID;TZID=Europe/Paris:20261218T203000',
    `DTSTART;TZID=Europe/Paris:${moved}`,
    `DTEND;TZID=Europe/Paris:${moved.slice(0, 9)}235900`,
    'STATUS:CONFIRMED',
    'SUMMARY:Les Vendredis Garonne : édition d’hiver',
    'LOCATION:Le Quai des Sons\\n3 quai de la Daurade\\n31000 Toulouse',
    'DESCRIPTION:Exceptionnellement un samedi.\\n\\nAvec : Quartz\\, Ecume',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'DTSTAMP:20261118T160000Z',
    'UID:3c7e6f1a-9b2d-4c8e-a1f0-5d6e7f8a9b0c',
    'RECURRENCE-ID;TZID=Europe/Paris:20261120T203000',
    'DTSTART;TZID=Europe/Paris:20261120T203000',
    'DTEND;TZID=Europe/Paris:20261120T235900',
    'STATUS:CANCELLED',
    'SUMMARY:Les Vendredis Garonne',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'CREATED:20261101T083000Z',
    'DTSTAMP:20261118T160000Z',
    'UID:b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
    'DTSTART;TZID=Europe/Paris:20270123T140000',
    'DURATION:PT9H',
    'STATUS:TENTATIVE',
    'SUMMARY:Plein air techno',
    'LOCATION:La Prairie\\, 12 allée de la Prairie des Filtres\\, 31000 Toulouse',
    'GEO:91.5;1.44',
    'CATEGORIES:plein air',
    'IMAGE;VALUE=URI:/assets/images/evenements/plein-air-techno.webp',
    'DESCRIPTION:Line-up : Quartz & Invitée Surprise',
    'END:VEVENT',
    'END:VCALENDAR',
  ]);
}

/**
 * An Outlook export: CRLF, folded lines, Windows zone names (TZID="Romance Standard Time") with
 * their VTIMEZONE, the text in DESCRIPTION and as HTML in X-ALT-DESC;FMTTYPE=text/html, one event
 * with its HTML copy only, one whose DESCRIPTION is HTML, and an event without end.
 */
export function outlookCalendar(): string {
  return crlf([
    'BEGIN:VCALENDAR',
    'PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN',
    'VERSION:2.0',
    'METHOD:PUBLISH',
    'X-MS-OLK-FORCEINSPECTOROPEN:TRUE',
    'BEGIN:VTIMEZONE',
    'TZID:Romance Standard Time',
    'BEGIN:STANDARD',
    'DTSTART:16011028T030000',
    'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:16010325T020000',
    'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    'CLASS:PUBLIC',
    'CREATED:20261025T101010Z',
    'DESCRIPTION:Soirée électro au Hangar.\\n\\nAvec : Quartz\\, Tic Tac\\n\\n',
    'DTEND;TZID="Romance Standard Time":20261128T030000',
    'DTSTAMP:20261120T090000Z',
    'DTSTART;TZID="Romance Standard Time":20261127T220000',
    'LAST-MODIFIED:20261025T101010Z',
    'LOCATION:Le Hangar Garonne\\, 12 rue des Amidonniers\\, 31000 Toulouse',
    'PRIORITY:5',
    'SEQUENCE:0',
    'SUMMARY;LANGUAGE=fr:Nuit électro au Hangar',
    'TRANSP:OPAQUE',
    'UID:040000008200E00074C5B7101A82E00800000000D0B1A2C3D4E5F6010000000000000000100',
    ' 00000123456789ABCDEF',
    'X-ALT-DESC;FMTTYPE=text/html:<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2//E',
    ' N">\\n<HTML>\\n<HEAD>\\n<META NAME="Generator" CONTENT="MS Exchange Server ve',
    ' rsion rmj.rmm.rup.rpr">\\n<TITLE></TITLE>\\n</HEAD>\\n<BODY>\\n<P><B>Soirée é',
    ' lectro</B> au Hangar.</P>\\n<P>Avec : Quartz\\, Tic Tac</P>\\n</BODY>\\n</HTML>',
    'X-MICROSOFT-CDO-BUSYSTATUS:BUSY',
    'X-MICROSOFT-CDO-IMPORTANCE:1',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'CLASS:PUBLIC',
    'DTSTART;TZID="Romance Standard Time":20261212T180000',
    'DTSTAMP:20261120T090000Z',
    'SUMMARY;LANGUAGE=fr:Apéro vinyles',
    'UID:040000008200E00074C5B7101A82E00800000000AAAA',
    'X-ALT-DESC;FMTTYPE=text/html:<html><body><p class=MsoNormal>Les résidents p',
    ' assent leurs disques&nbsp;:<o:p></o:p></p><p class=MsoNormal>Avec : Vinyle',
    "  Vert et <span style='color:red'>Tournesol</span><o:p></o:p></p><script>al",
    ' ert(1)</script><p>Entrée libre</p></body></html>',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'CLASS:PUBLIC',
    'DTSTART;TZID="Romance Standard Time":20261219T200000',
    'DTEND;TZID="Romance Standard Time":20261219T230000',
    'DTSTAMP:20261120T090000Z',
    'SUMMARY;LANGUAGE=fr:Concert au Bocal',
    'UID:040000008200E00074C5B7101A82E00800000000BBBB',
    'DESCRIPTION:<div>Concert acoustique.</div><div>Avec : Coquelicot &amp; Mistr',
    ' al Gagnant</div><div><a href="https://billetterie.example.org/bocal">https:',
    ' //billetterie.example.org/bocal</a></div>',
    'END:VEVENT',
    'END:VCALENDAR',
  ]);
}

/** A calendar of these VEVENTs (each given as its lines), as the tests write hostile ones. */
export function eventsCalendarOf(...events: string[][]): string {
  return crlf([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//FR',
    'X-WR-TIMEZONE:Europe/Paris',
    ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
  ]);
}
