import { eventDateLabel, eventHours, mapHref, posterAddress, statusLabel, visitorHours, webAddress } from './format';

const NIGHT = { start: '2026-12-05T22:00:00.000Z', end: '2026-12-06T04:00:00.000Z', allDay: false };

describe('how an event’s dates are said', () => {
  it('in Paris time, a night over midnight on the day it starts', () => {
    expect(eventDateLabel(NIGHT)).toBe('samedi 5 décembre 2026');
    expect(eventHours(NIGHT)).toBe('23:00 – 05:00');
  });

  it('adds the visitor’s own hours when their zone writes others, with their day when it differs', () => {
    expect(visitorHours(NIGHT, null)).toBe('');
    expect(visitorHours(NIGHT, 'Europe/Berlin')).toBe('');
    expect(visitorHours(NIGHT, 'Europe/London')).toBe('22:00 – 04:00');
    expect(visitorHours(NIGHT, 'America/Montreal')).toBe('17:00 – 23:00');
    expect(visitorHours(NIGHT, 'Asia/Tokyo')).toBe('07:00 – 13:00 le dimanche 6 décembre');
  });

  it('says a whole day as its date, several days as from one to the other, in every zone', () => {
    const day = { start: '2026-06-20T22:00:00.000Z', end: '2026-06-21T22:00:00.000Z', allDay: true };
    expect(eventDateLabel(day)).toBe('dimanche 21 juin 2026');
    expect(eventHours(day)).toBe('Toute la journée');
    expect(visitorHours(day, 'America/Montreal')).toBe('');
    const weekend = { start: '2026-07-03T22:00:00.000Z', end: '2026-07-05T22:00:00.000Z', allDay: true };
    expect(eventDateLabel(weekend)).toBe('du 4 au 5 juillet 2026');
    const across = { start: '2026-06-29T22:00:00.000Z', end: '2026-07-02T22:00:00.000Z', allDay: true };
    expect(eventDateLabel(across)).toBe('du 30 juin au 2 juillet 2026');
    const newYear = { start: '2026-12-30T23:00:00.000Z', end: '2027-01-01T23:00:00.000Z', allDay: true };
    expect(eventDateLabel(newYear)).toBe('du 31 décembre 2026 au 1 janvier 2027');
  });

  it('across a change of time: the night of 24 October is 23:00 – 05:00 in Paris though UTC moved an hour', () => {
    const night = { start: '2026-10-24T21:00:00.000Z', end: '2026-10-25T04:00:00.000Z', allDay: false };
    expect(eventHours(night)).toBe('23:00 – 05:00');
  });
});

describe('what the page links and shows', () => {
  it('links only http(s) addresses', () => {
    expect(webAddress('https://billetterie.example.org/a')).toBe('https://billetterie.example.org/a');
    expect(webAddress('javascript:alert(1)')).toBeNull();
    expect(webAddress('data:text/html,x')).toBeNull();
    expect(webAddress('//evil.example.org')).toBeNull();
    expect(webAddress(null)).toBeNull();
  });

  it('shows only https posters and the site’s own pictures', () => {
    expect(posterAddress('https://affiches.example.org/a.webp')).toBe('https://affiches.example.org/a.webp');
    expect(posterAddress('/assets/images/evenements/a.webp')).toBe('/assets/images/evenements/a.webp');
    expect(posterAddress('/assets/images/../secret.webp')).toBeNull();
    expect(posterAddress('http://affiches.example.org/a.webp')).toBeNull();
    expect(posterAddress('data:image/png;base64,AAAA')).toBeNull();
  });

  it('opens the place on a map by its coordinates, else by its name and address', () => {
    expect(mapHref({ venue: 'Le Bikini', address: null, geo: { lat: 43.56, lon: 1.48 } })).toBe(
      'https://www.openstreetmap.org/?mlat=43.56&mlon=1.48#map=17/43.56/1.48',
    );
    expect(mapHref({ venue: 'Le Bikini', address: 'Rue Hermès, Ramonville', geo: null })).toBe(
      'https://www.openstreetmap.org/search?query=Le%20Bikini%2C%20Rue%20Herm%C3%A8s%2C%20Ramonville',
    );
    expect(mapHref({ venue: null, address: null, geo: null })).toBeNull();
  });

  it('names each status in words', () => {
    expect(statusLabel({ status: 'cancelled', rescheduled: true })).toBe('Annulé');
    expect(statusLabel({ status: 'tentative', rescheduled: false })).toBe('À confirmer');
    expect(statusLabel({ status: 'confirmed', rescheduled: true })).toBe('Date modifiée');
    expect(statusLabel({ status: 'confirmed', rescheduled: false })).toBeNull();
  });
});
