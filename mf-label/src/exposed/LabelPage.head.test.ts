import { declaredHref } from '@collectif/shared/testing';
import { api, makeStore, radioSettings, type Release } from '@collectif/shared';
import { page as label } from './LabelPage';

const release = (image: string): Release => ({
  href: '/album/brique-rose',
  image,
  title: 'Brique Rose',
  artist: 'Capitole Sound',
});

async function preloadsWith(releases: Release[] | null) {
  const store = makeStore();
  if (releases !== null) await store.dispatch(api.util.upsertQueryData('releases', {}, releases));
  return label.preloads?.({
    params: {},
    origin: 'https://radio.example.org',
    query: new URLSearchParams(),
    radio: radioSettings(),
    href: declaredHref,
    state: store.getState(),
  });
}

describe('the label page’s first image (`preloads`)', () => {
  it('is the first cover of the grid when it is a picture of the site, fetched first', async () => {
    expect(
      await preloadsWith([
        release('/assets/images/releases/brique-rose.webp'),
        release('/assets/images/releases/x.webp'),
      ]),
    ).toEqual([
      {
        href: '/assets/images/releases/brique-rose.webp',
        // The grid's widths, as its <img> offers them (releases/ReleaseCard.tsx).
        imagesrcset: '/assets/images/releases/brique-rose-400.webp 400w, /assets/images/releases/brique-rose.webp 600w',
        imagesizes: '(min-width: 1200px) 18rem, (min-width: 800px) 33vw, 50vw',
        fetchpriority: 'high',
      },
    ]);
  });

  it('is none for a cover elsewhere, an empty catalogue or releases not yet known', async () => {
    expect(await preloadsWith([release('https://label.example.org/brique-rose.jpg')])).toEqual([]);
    expect(await preloadsWith([])).toEqual([]);
    expect(await preloadsWith(null)).toEqual([]);
  });
});
