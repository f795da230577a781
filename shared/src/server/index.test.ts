import { api, makeStore } from '@collectif/shared';
import { handOver } from './index';

// The state a page rendered on the server hands over to the browser (docs/rendering.md, « State per
// request »): the answers that arrived, without what only the server's requests were.

/** A store whose /api answers from this table: a status and a body per path, nothing else. */
function storeAnswering(answers: Record<string, { status: number; body: unknown }>) {
  return makeStore(undefined, {
    api: {
      base: 'http://site.test/api',
      transport: (request) => {
        const answer = answers[new URL(request.url).pathname.replace(/^\/api/, '')];
        return Promise.resolve(
          answer === undefined
            ? new Promise<Response>(() => undefined)
            : Response.json(answer.body, { status: answer.status }),
        );
      },
    },
  });
}

describe('handOver', () => {
  it('keeps the answers that arrived and a « not found », without their request’s id and start', async () => {
    const store = storeAnswering({
      '/releases': { status: 200, body: [{ title: 'Sortie', artist: 'A', href: '/album/sortie', image: '/a.webp' }] },
      '/events/inconnu': { status: 404, body: { error: 'event_not_found', message: 'Inconnu.' } },
      '/styles': { status: 500, body: { error: 'internal', message: 'Erreur.' } },
    });
    await Promise.all([
      store.dispatch(api.endpoints.releases.initiate({})),
      store.dispatch(api.endpoints.event.initiate('inconnu')),
      store.dispatch(api.endpoints.styles.initiate(undefined)),
    ]);
    // A request still on its way.
    void store.dispatch(api.endpoints.podcasts.initiate({ limit: 1 }));
    const { queries } = handOver(store).api as ReturnType<typeof store.getState>['api'];
    expect(Object.keys(queries).sort()).toEqual(['event("inconnu")', 'releases({})']);
    for (const query of Object.values(queries)) {
      expect(query).not.toHaveProperty('requestId');
      expect(query).not.toHaveProperty('startedTimeStamp');
    }
    // RTK Query's own settings and subscriptions are the browser's store's, not the page's.
    expect(Object.keys(handOver(store).api as object).sort()).toEqual(['mutations', 'provided', 'queries']);
    // When it arrived stays: the browser asks again once an answer is old enough.
    expect(queries['releases({})']).toHaveProperty('fulfilledTimeStamp');
    expect(queries['releases({})']?.data).toEqual([
      { title: 'Sortie', artist: 'A', href: '/album/sortie', image: '/a.webp' },
    ]);
  });

  it('leaves out what the page reads back from its own HTML, and the tags those answers carried', async () => {
    const team = [{ imagePath: '/assets/images/team/a.webp', title: 'Alex', description: 'Technique' }];
    const store = storeAnswering({
      '/content/team': { status: 200, body: team },
      '/releases': { status: 200, body: [{ title: 'Sortie', artist: 'A', href: '/album/sortie', image: '/a.webp' }] },
    });
    await Promise.all([
      store.dispatch(api.endpoints.team.initiate(undefined)),
      store.dispatch(api.endpoints.releases.initiate({})),
    ]);
    const whole = handOver(store).api as ReturnType<typeof store.getState>['api'];
    expect(Object.keys(whole.queries).sort()).toEqual(['releases({})', 'team(undefined)']);
    const state = handOver(store, { fromHtml: ['team'] }).api as ReturnType<typeof store.getState>['api'];
    expect(Object.keys(state.queries)).toEqual(['releases({})']);
    expect(Object.keys(state.provided.keys)).not.toContain('team(undefined)');
    expect(JSON.stringify(state)).not.toContain('Alex');
    // Nothing else changes.
    expect(state.queries['releases({})']).toEqual(whole.queries['releases({})']);
  });
});
