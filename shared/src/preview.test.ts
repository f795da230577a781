import { api, makeStore } from '@collectif/shared';
import residences from '../content/residences.json';
import { applyPreview, readPreviewMessage } from './preview';

// The page's half of the editor's preview: what it takes from a message, and what it puts in the store.

const release = (title: string) => ({ title, artist: 'Artiste', href: `/album/${title}`, image: '/a.webp' });

describe('the editor’s preview in a page', () => {
  it('reads only the editor’s messages, of a kind a page shows', () => {
    expect(readPreviewMessage({ type: 'collectif:apercu', kind: 'about', data: { heading: 'x' } })).toEqual({
      type: 'collectif:apercu',
      kind: 'about',
      data: { heading: 'x' },
    });
    expect(readPreviewMessage({ type: 'collectif:apercu', kind: 'accounts', data: [] })).toBeNull();
    expect(readPreviewMessage({ type: 'collectif:apercu', kind: 'toString', data: [] })).toBeNull();
    expect(readPreviewMessage({ type: 'autre', kind: 'about', data: {} })).toBeNull();
    expect(readPreviewMessage('collectif:apercu')).toBeNull();
    expect(readPreviewMessage(null)).toBeNull();
  });

  it('puts the content in place of the served one, each use of the releases with its own limit', async () => {
    const store = makeStore();
    await store.dispatch(api.util.upsertQueryData('releases', { limit: 2 }, [release('a'), release('b')]));
    await store.dispatch(api.util.upsertQueryData('releases', {}, [release('a'), release('b'), release('c')]));
    const next = [release('nouvelle'), release('a'), release('b'), release('c')];
    await applyPreview(store, { kind: 'releases', data: next });
    const state = store.getState();
    expect(api.endpoints.releases.select({ limit: 2 })(state).data).toEqual(next.slice(0, 2));
    expect(api.endpoints.releases.select({})(state).data).toEqual(next);

    // A residence's page asked for its residence by its address (whatever its case), a list page for
    // the summaries: each reads the preview's content.
    const [first] = residences;
    if (first === undefined) throw new Error('aucune résidence');
    await store.dispatch(api.util.upsertQueryData('residence', first.id.toUpperCase(), first));
    await store.dispatch(api.util.upsertQueryData('residence', 'disparue', null));
    const changed = residences.map((entry, index) => (index === 0 ? { ...entry, show: 'En aperçu' } : entry));
    await applyPreview(store, { kind: 'residences', data: changed });
    const after = store.getState();
    expect(api.endpoints.residences.select(undefined)(after).data).toEqual(changed);
    expect(api.endpoints.residence.select(first.id.toUpperCase())(after).data).toEqual(changed[0]);
    expect(api.endpoints.residence.select('disparue')(after).data).toBeNull();
    const summaries = api.endpoints.residenceSummaries.select(undefined)(after).data ?? [];
    expect(summaries).toHaveLength(changed.length);
    expect(summaries[0]).toEqual({ id: first.id, artist: first.artist, show: 'En aperçu' });
  });

  it('takes nothing of another shape than the served answer’s (the same schema checks both)', async () => {
    const store = makeStore();
    await store.dispatch(api.util.upsertQueryData('residences', undefined, residences));
    await applyPreview(store, { kind: 'residences', data: [{ id: '<img src=x onerror=alert(1)>' }] }).catch(
      () => undefined,
    );
    expect(api.endpoints.residences.select(undefined)(store.getState()).data).toEqual(residences);
    expect(api.endpoints.residenceSummaries.select(undefined)(store.getState()).data).toBeUndefined();
  });
});
