import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { declaredHref } from '@collectif/shared/testing';
import { makeStore, radioSettings, siteConfig } from '@collectif/shared';
import { missingProperties } from '@collectif/shared/seo';
import { eventItem, startFakeApi, type FakeApi } from '../testing/fakeApi';
import EventPage, { page as eventPage } from './EventPage';

const SLUG = '2026-12-05-0123456789';
const NIGHT = eventItem(SLUG, 'Nuit Bass Music', '2026-12-05T22:00:00.000Z', '2026-12-06T04:00:00.000Z', {
  geo: { lat: 43.6135, lon: 1.4342 },
  lineup: [
    { name: 'Axonberg', residence: 'axonberg' },
    { name: 'DJ Invitée', residence: null },
  ],
  tickets: 'https://billetterie.example.org/nuit-bass',
  image: '/assets/images/evenements/nuit-bass.webp',
  categories: ['dub', 'jungle'],
  description:
    'Une nuit de basses au Metronum.\nAvec : Axonberg, DJ Invitée\n\nInfos : https://collectif.example.org/infos. <b>gras</b>',
});

let api: FakeApi;
let answer: { status?: number; body: unknown };
let clock: jest.SpyInstance<number, []>;

beforeEach(async () => {
  window.scrollTo = jest.fn();
  answer = { body: NIGHT };
  api = await startFakeApi({ [`/events/${SLUG}`]: () => answer });
  clock = jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-25T19:30:00.000Z'));
});

afterEach(async () => {
  clock.mockRestore();
  await api.close();
});

const open = () => renderWithProviders(<EventPage />, { route: `/evenements/${SLUG}`, path: 'evenements/:slug' });

describe('EventPage', () => {
  it('shows the poster, date and hours in Paris, the venue with a map link, the line-up, the text and the actions', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Nuit Bass Music' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Affiche : Nuit Bass Music' })).toHaveAttribute(
      'src',
      '/assets/images/evenements/nuit-bass.webp',
    );
    const facts = document.querySelector('dl.event__facts') as HTMLElement;
    expect(facts).toHaveTextContent('Datesamedi 5 décembre 2026');
    expect(facts).toHaveTextContent('Horaires23:00 – 05:00 (heure de Paris)');
    expect(facts).toHaveTextContent('LieuLe Metronum2 rond-point Madame de Mondonville, 31200 Toulouse');
    expect(within(facts).getByRole('link', { name: /Ouvrir dans une carte/ })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/?mlat=43.6135&mlon=1.4342#map=17/43.6135/1.4342',
    );
    expect(within(facts).getByRole('link', { name: 'Axonberg' })).toHaveAttribute('href', '/residences/axonberg');
    expect(facts).toHaveTextContent('Stylesdub, jungle');
    expect(screen.getByRole('link', { name: /^Billets/ })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Ajouter à mon agenda' }).getAttribute('href')).toMatch(
      new RegExp(`/api/events/${SLUG}\\.ics$`),
    );
    // The text as written: its address a link (without the sentence's full stop), its tags as text.
    const info = screen.getByRole('link', { name: 'https://collectif.example.org/infos' });
    expect(info).toHaveAttribute('href', 'https://collectif.example.org/infos');
    expect(info).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(screen.getByText(/<b>gras<\/b>/)).toBeInTheDocument();
    expect(document.querySelector('.event__text b')).toBeNull();
  });

  it('says plainly that a cancelled event will not take place, with no tickets and nothing to add', async () => {
    answer = { body: { ...NIGHT, status: 'cancelled' } };
    open();
    expect(await screen.findByRole('note')).toHaveTextContent('Annulé : cet évènement n’aura pas lieu.');
    expect(screen.queryByRole('link', { name: /^Billets/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ajouter à mon agenda' })).not.toBeInTheDocument();
  });

  it('never links a hostile ticket or text address, and never shows a poster that is not https', async () => {
    answer = {
      body: {
        ...NIGHT,
        tickets: 'javascript:alert(1)',
        image: 'http://affiches.example.org/nuit.png',
        description: 'Voir javascript:alert(1) et data:text/html,<script>alert(1)</script>',
      },
    };
    open();
    await screen.findByRole('heading', { level: 1, name: 'Nuit Bass Music' });
    expect(screen.queryByRole('link', { name: /^Billets/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(document.querySelectorAll('.event__text a')).toHaveLength(0);
    expect(screen.getByText(/data:text\/html,<script>/)).toBeInTheDocument();
  });

  it('answers an unknown event with a page that leads to every event', async () => {
    answer = { status: 404, body: { error: 'event_not_found', message: 'Cet évènement n’existe pas.' } };
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Évènement introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir tous les évènements' })).toHaveAttribute('href', '/evenements');
    // An address that is not an event's is not even asked for.
    renderWithProviders(<EventPage />, { route: '/evenements/nuit-bass', path: 'evenements/:slug' });
    expect(api.requests).toEqual([`/events/${SLUG}`]);
  });
});

describe('the event page’s head', () => {
  const ORIGIN = 'https://radio.example.org';
  const context = (slug: string) => ({
    params: { slug },
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    href: declaredHref,
  });

  it('describes the event as a MusicEvent: dates with their offset, place, offer, performers, organizer', async () => {
    const store = makeStore();
    await Promise.all(eventPage.load!({ ...context(SLUG), dispatch: store.dispatch }));
    const head = eventPage.head!({ ...context(SLUG), state: store.getState() });
    expect(head.title).toBe('Nuit Bass Music · Évènements');
    expect(head.canonicalPath).toBe(`/evenements/${SLUG}`);
    expect(head.description).toBe(
      'samedi 5 décembre 2026, 23:00 – 05:00, Le Metronum. Une nuit de basses au Metronum.',
    );
    expect(head.jsonLd).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'MusicEvent',
        name: 'Nuit Bass Music',
        url: `${ORIGIN}/evenements/${SLUG}`,
        startDate: '2026-12-05T23:00:00+01:00',
        endDate: '2026-12-06T05:00:00+01:00',
        eventStatus: 'https://schema.org/EventScheduled',
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        inLanguage: 'fr',
        description: 'Une nuit de basses au Metronum.',
        image: [`${ORIGIN}/assets/images/evenements/nuit-bass.webp`],
        location: {
          '@type': 'Place',
          name: 'Le Metronum',
          address: {
            '@type': 'PostalAddress',
            streetAddress: '2 rond-point Madame de Mondonville, 31200 Toulouse',
            addressCountry: 'FR',
          },
          geo: { '@type': 'GeoCoordinates', latitude: 43.6135, longitude: 1.4342 },
        },
        offers: {
          '@type': 'Offer',
          url: 'https://billetterie.example.org/nuit-bass',
          availability: 'https://schema.org/InStock',
        },
        performer: [
          { '@type': 'PerformingGroup', name: 'Axonberg', url: `${ORIGIN}/residences/axonberg` },
          { '@type': 'PerformingGroup', name: 'DJ Invitée' },
        ],
        organizer: { '@type': 'Organization', name: siteConfig.name, url: `${ORIGIN}/` },
      },
    ]);
    expect(missingProperties(head.jsonLd)).toEqual([]);
  });

  it('says a cancelled or moved event’s status, and answers 404 for an unknown one', async () => {
    answer = { body: { ...NIGHT, status: 'cancelled' } };
    let store = makeStore();
    await Promise.all(eventPage.load!({ ...context(SLUG), dispatch: store.dispatch }));
    let head = eventPage.head!({ ...context(SLUG), state: store.getState() });
    expect(head.title).toBe('Annulé : Nuit Bass Music · Évènements');
    expect(head.jsonLd?.[0]).toMatchObject({ eventStatus: 'https://schema.org/EventCancelled' });

    answer = { body: { ...NIGHT, rescheduled: true } };
    store = makeStore();
    await Promise.all(eventPage.load!({ ...context(SLUG), dispatch: store.dispatch }));
    head = eventPage.head!({ ...context(SLUG), state: store.getState() });
    expect(head.jsonLd?.[0]).toMatchObject({ eventStatus: 'https://schema.org/EventRescheduled' });

    answer = { status: 404, body: { error: 'event_not_found', message: 'Inconnu.' } };
    store = makeStore();
    await Promise.all(eventPage.load!({ ...context(SLUG), dispatch: store.dispatch }));
    expect(eventPage.head!({ ...context(SLUG), state: store.getState() }).status).toBe(404);
    expect(eventPage.head!({ ...context('pas-un-evenement'), state: store.getState() }).status).toBe(404);
  });

  it('writes a whole-day event’s dates as dates', async () => {
    answer = {
      body: { ...NIGHT, allDay: true, start: '2026-12-04T23:00:00.000Z', end: '2026-12-06T23:00:00.000Z' },
    };
    const store = makeStore();
    await Promise.all(eventPage.load!({ ...context(SLUG), dispatch: store.dispatch }));
    const head = eventPage.head!({ ...context(SLUG), state: store.getState() });
    expect(head.jsonLd?.[0]).toMatchObject({ startDate: '2026-12-05', endDate: '2026-12-06' });
  });
});
