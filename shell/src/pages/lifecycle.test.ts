import { api, makeStore, radioSettings, type PageDefinition, type PageRef } from '@collectif/shared';
import { startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { declaredPages } from '@collectif/shared/testing';
import { pageLoader, type PageLifecycle, type PageLoaderData } from './lifecycle';

const PAGE: PageRef = {
  path: 'residences/:id',
  remote: 'radio',
  module: 'ResidencePage',
  title: 'Résidence',
  area: 'a',
};

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeServer();
});

afterEach(() => server.close());

function lifecycle(definition: PageDefinition | Error | undefined, overrides: Partial<PageLifecycle> = {}) {
  const logged: string[] = [];
  const store = makeStore(undefined, { api: { base: `${server.origin}/api`, transport: (request) => fetch(request) } });
  const value: PageLifecycle = {
    store,
    definitionOf: () => (definition instanceof Error ? Promise.reject(definition) : Promise.resolve(definition)),
    origin: () => 'https://radio.example.org',
    radio: radioSettings(),
    pages: declaredPages(),
    dataDeadlineMs: 1000,
    log: (message) => logged.push(message),
    ...overrides,
  };
  return { value, store, logged };
}

/** What a loader answered: React Router's `data(value, { status })`. */
async function run(loader: ReturnType<typeof pageLoader>, url: string, params: Record<string, string>) {
  const args = { params, request: new Request(url), url: new URL(url), pattern: `/${PAGE.path}`, context: undefined };
  const answer = (await loader(args)) as unknown as {
    data: PageLoaderData;
    init: { status: number } | null;
  };
  return { ...answer.data, status: answer.init?.status };
}

describe("a page's route loader", () => {
  it('loads the page’s data into the store, then answers its head, first images and status from it', async () => {
    server.on('/api/podcasts', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    });
    const definition: PageDefinition = {
      load: ({ params, dispatch }) => [dispatch(api.endpoints.podcasts.initiate({ q: params.id ?? '' }))],
      head: ({ params, state, href }) => {
        const answered = api.endpoints.podcasts.select({ q: params.id ?? '' })(state).data !== undefined;
        return params.id === 'axonberg'
          ? {
              title: `${String(answered)} · ${href({ remote: 'radio', module: 'ResidencePage' }, { id: 'axonberg' }) ?? ''}`,
            }
          : { status: 404, title: 'Résidence introuvable' };
      },
      preloads: ({ params }) => [{ href: `/assets/images/residences/${params.id ?? ''}-header.webp` }],
    };
    const { value, store } = lifecycle(definition);
    const known = await run(pageLoader(PAGE, value), 'https://radio.example.org/residences/axonberg', {
      id: 'axonberg',
    });
    expect(known).toEqual({
      head: { title: 'true · /residences/axonberg' },
      preloads: [{ href: '/assets/images/residences/axonberg-header.webp' }],
      status: 200,
    });
    // The page's own components find the answer in the store.
    expect(api.endpoints.podcasts.select({ q: 'axonberg' })(store.getState()).data).toEqual([]);
    const unknown = await run(pageLoader(PAGE, value), 'https://radio.example.org/residences/x', { id: 'x' });
    expect(unknown.status).toBe(404);
    expect(server.count('/api/podcasts')).toBe(2);
  });

  it('answers the page with what arrived by the deadline', async () => {
    // Never answers: the page is answered anyway.
    server.on('/api/podcasts', () => undefined);
    const definition: PageDefinition = {
      load: ({ dispatch }) => [dispatch(api.endpoints.podcasts.initiate({ q: 'lent' }))],
      head: ({ state }) => ({ title: api.endpoints.podcasts.select({ q: 'lent' })(state).status }),
    };
    const { value } = lifecycle(definition, { dataDeadlineMs: 50 });
    const answer = await run(pageLoader(PAGE, value), 'https://radio.example.org/residences/lent', { id: 'lent' });
    expect(answer).toEqual({ head: { title: 'pending' }, preloads: [], status: 200 });
  });

  it('answers a page whose module cannot load, or whose head throws, with the table’s head, and says why', async () => {
    const unreachable = lifecycle(new Error('remote injoignable'));
    expect(
      await run(pageLoader(PAGE, unreachable.value), 'https://radio.example.org/residences/a', { id: 'a' }),
    ).toEqual({ head: {}, preloads: [], status: 200 });
    expect(unreachable.logged).toEqual(['Page residences/:id : module indisponible']);
    const throwing = lifecycle({
      head: () => {
        throw new Error('cassé');
      },
    });
    expect(
      (await run(pageLoader(PAGE, throwing.value), 'https://radio.example.org/residences/a', { id: 'a' })).status,
    ).toBe(200);
    expect(throwing.logged).toEqual(['En-tête de residences/:id']);
  });
});
