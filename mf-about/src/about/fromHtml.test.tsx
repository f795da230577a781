import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import {
  api,
  configureApiBase,
  makeStore,
  radioSettings,
  ssrHydrated,
  type AboutTexts,
  type AppStore,
  type TeamMember,
} from '@collectif/shared';
import { handOver } from '@collectif/shared/server';
import { declaredHref, json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import shipped from '../../content/about.json';
import shippedTeam from '../../content/team.json';
import AboutPage, { page } from '../exposed/AboutPage';
import { readAboutPage, servedAbout } from './fromHtml';

// About's texts come once (docs/rendering.md, « The store's state in the page »): in the HTML the
// server renders, not again in the page's state. The browser reads them back from that HTML, so
// every field must be there, and the page must hydrate from them without asking for them again.

const ORIGIN = 'https://radio.example.org';
let served: FakeServer;
let texts: AboutTexts;
let team: TeamMember[];

beforeEach(async () => {
  // jsdom does not scroll (the page scrolls to its top when it shows).
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  texts = shipped;
  team = shippedTeam;
  served = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: {
      '/api/content/about': (request, response) => json(texts)(request, response),
      '/api/content/team': (request, response) => json(team)(request, response),
      '/api/events': json({
        zone: 'Europe/Paris',
        now: '2026-11-25T19:30:00.000Z',
        stale: false,
        source: 'calendar',
        thisYear: 12,
        coming: [],
        past: [],
      }),
    },
  });
  configureApiBase(`${served.origin}/api`);
});

afterEach(async () => {
  jest.restoreAllMocks();
  await served.close();
});

function Page({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <MemoryRouter initialEntries={['/a-propos']}>
        <AboutPage />
      </MemoryRouter>
    </Provider>
  );
}

/** The page as the server renders it: its data loaded by its definition, then React's HTML. */
async function serverPage(): Promise<{ html: string; store: AppStore }> {
  const store = makeStore(undefined, {
    api: {
      base: `${ORIGIN}/api`,
      transport: (request) => fetch(request.url.replace(`${ORIGIN}/api`, `${served.origin}/api`)),
    },
  });
  const context = {
    params: {},
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    href: declaredHref,
  };
  await Promise.all(page.load!({ ...context, dispatch: store.dispatch }));
  return { html: renderToString(<Page store={store} />), store };
}

const parsed = (html: string) => {
  const container = document.createElement('div');
  container.innerHTML = html;
  return container;
};

describe('About read back from its HTML', () => {
  it('gives every text and every member of the team, as the server rendered them', async () => {
    const { html } = await serverPage();
    expect(readAboutPage(parsed(html))).toEqual({ texts: shipped, team: shippedTeam });
  });

  it('reads other content as well: other counts, quotes, ampersands and angle brackets', async () => {
    texts = {
      ...shipped,
      heading: 'À propos de « nous » & <vous>',
      collective: { heading: 'Le "collectif"', paragraphs: ['Un seul paragraphe, l’apostrophe et le <b>.'] },
      values: { heading: 'Valeurs', items: [{ title: 'Une', text: 'Seule & unique.' }] },
      label: { ...shipped.label, styles: ['dub'] },
      funding: { ...shipped.funding, paragraphs: ['Un.', 'Deux.', 'Trois.'], sources: ['une source'] },
      studio: { ...shipped.studio, mapProvider: 'OpenStreetMap & co' },
      credits: { heading: 'Crédits', items: [{ role: 'Tout', name: 'Tout le monde' }] },
    };
    team = [{ imagePath: '/assets/images/team/alex.webp', title: 'Alex', description: 'Son & lumière' }];
    const { html } = await serverPage();
    expect(readAboutPage(parsed(html))).toEqual({ texts, team });
  });

  it('is nothing on a page that is not About as the server renders it', async () => {
    expect(readAboutPage(parsed('<main><h1>Label</h1></main>'))).toBeNull();
    const { html } = await serverPage();
    const without = parsed(html);
    without.querySelector('section#studio')?.remove();
    expect(readAboutPage(without)).toBeNull();
    const empty = parsed(html);
    empty.querySelector('.about-intro__statement')!.textContent = '';
    expect(readAboutPage(empty)).toBeNull();
  });

  it('hydrates the page from its HTML: the state without the texts, nothing asked again, the same markup', async () => {
    const server = await serverPage();
    // What the server writes into the page: the events' figure, not the texts nor the team.
    const state = handOver(server.store, { fromHtml: page.fromHtml ?? [] });
    expect(JSON.stringify(state)).not.toContain(shipped.collective.paragraphs[0]);
    expect(JSON.stringify(state)).not.toContain(shippedTeam[0]!.description);
    expect(JSON.stringify(state)).toContain('"thisYear":12');

    const container = parsed(server.html);
    document.body.append(container);
    const before = served.requests.length;
    const browser = makeStore();
    browser.dispatch(ssrHydrated(state));
    const errors = jest.spyOn(console, 'error');
    const recoverable: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <Page store={browser} />, { onRecoverableError: (error) => recoverable.push(error) });
      await Promise.resolve();
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    // What the visitor reads is what the server sent (React took it over without rendering it anew).
    expect(container.textContent).toBe(parsed(server.html).textContent);
    // Read once, then in the store for the head and the next visit; never asked of /api.
    expect(servedAbout()).toEqual({ texts: shipped, team: shippedTeam });
    expect(api.endpoints.aboutTexts.select(undefined)(browser.getState()).data).toEqual(shipped);
    expect(api.endpoints.team.select(undefined)(browser.getState()).data).toEqual(shippedTeam);
    expect(served.requests.slice(before).map((request) => request.path)).toEqual([]);
    // The head the browser computes is the server's: the page's picture for its cards.
    const context = {
      params: {},
      origin: ORIGIN,
      query: new URLSearchParams(),
      radio: radioSettings(),
      href: declaredHref,
    };
    expect(page.head!({ ...context, state: browser.getState() })).toEqual(
      page.head!({ ...context, state: server.store.getState() }),
    );
    container.remove();
  });
});
