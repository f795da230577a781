import * as v from 'valibot';
import {
  gridSquare,
  pictureCopies,
  pictureSrcSet,
  preloadSrcSet,
  residenceHeaderSrcSet,
  residencePictures,
} from './pictures.mjs';
import { releasesContentSchema, residenceEntrySchema, slidesSchema, teamSchema } from './schemas/content.mjs';

describe('the sizes of a picture of the site', () => {
  it('offers a release cover at 400 and 600 px', () => {
    expect(pictureSrcSet('/assets/images/releases/brique-rose.webp')).toBe(
      '/assets/images/releases/brique-rose-400.webp 400w, /assets/images/releases/brique-rose.webp 600w',
    );
  });

  it("offers a residence's card at 400 and 800 px, as the residence's pictures are named", () => {
    expect(pictureSrcSet('/assets/images/residences/Basse%20Cour-400.webp')).toBe(
      '/assets/images/residences/Basse%20Cour-400.webp 400w, /assets/images/residences/Basse%20Cour-800.webp 800w',
    );
  });

  it('offers the default cover of an episode at 400 and 600 px', () => {
    expect(pictureSrcSet('/assets/images/default-cover.webp')).toBe(
      '/assets/images/default-cover-400.webp 400w, /assets/images/default-cover.webp 600w',
    );
  });

  it('offers a picture of the About page at 800 and 1200 px', () => {
    expect(pictureSrcSet('/assets/images/a-propos/intro.webp')).toBe(
      '/assets/images/a-propos/intro-800.webp 800w, /assets/images/a-propos/intro.webp 1200w',
    );
  });

  it("offers an event's poster at 800 and 1200 px", () => {
    expect(pictureSrcSet('/assets/images/evenements/nuit-jungle.webp')).toBe(
      '/assets/images/evenements/nuit-jungle-800.webp 800w, /assets/images/evenements/nuit-jungle.webp 1200w',
    );
  });

  it('offers nothing for a picture that comes in one width', () => {
    for (const src of [
      'https://podcasts.example/cover.jpg',
      '//autre.example/assets/images/releases/x.webp',
      '/assets/images/releases/brique-rose-400.webp',
      '/assets/images/releases/x.webp?v=2',
      '/assets/images/residences/axonberg-header-800.webp',
      '',
    ])
      expect(pictureSrcSet(src)).toBeUndefined();
  });

  it("offers a residence's header at 800 and 1600 px, its id encoded", () => {
    expect(residenceHeaderSrcSet('Basse Cour')).toBe(
      '/assets/images/residences/Basse%20Cour-header-800.webp 800w, /assets/images/residences/Basse%20Cour-header.webp 1600w',
    );
    expect(pictureSrcSet('/assets/images/residences/Basse%20Cour-header.webp')).toBe(
      residenceHeaderSrcSet('Basse Cour'),
    );
  });

  it("gives a grid's card its picture with the widths it comes in and how wide it is shown", () => {
    expect(gridSquare('/assets/images/releases/a.webp', 600)).toEqual({
      src: '/assets/images/releases/a.webp',
      srcSet: '/assets/images/releases/a-400.webp 400w, /assets/images/releases/a.webp 600w',
      sizes: '(min-width: 1200px) 18rem, (min-width: 800px) 33vw, 50vw',
      width: 600,
      height: 600,
    });
    expect(gridSquare('https://podcasts.example/cover.jpg', 500).srcSet).toBeUndefined();
  });

  it("gives a preload the img's srcset and sizes, or nothing", () => {
    expect(preloadSrcSet('/assets/images/releases/a.webp', '50vw')).toEqual({
      imagesrcset: '/assets/images/releases/a-400.webp 400w, /assets/images/releases/a.webp 600w',
      imagesizes: '50vw',
    });
    expect(preloadSrcSet('https://podcasts.example/cover.jpg', '50vw')).toEqual({});
  });

  it('has the build make exactly the copies the pages offer', () => {
    expect(pictureCopies('releases/brique-rose.webp')).toEqual([
      { path: 'releases/brique-rose-400.webp', width: 400, height: 400 },
    ]);
    expect(pictureCopies('residences/Basse Cour-header.webp')).toEqual([
      { path: 'residences/Basse Cour-header-800.webp', width: 800, height: 300 },
    ]);
    expect(pictureCopies('default-cover.webp')).toEqual([{ path: 'default-cover-400.webp', width: 400, height: 400 }]);
    expect(pictureCopies('a-propos/intro.webp')).toEqual([
      { path: 'a-propos/intro-800.webp', width: 800, height: 533 },
    ]);
    expect(pictureCopies('evenements/nuit-jungle.webp')).toEqual([
      { path: 'evenements/nuit-jungle-800.webp', width: 800, height: 533 },
    ]);
    expect(pictureCopies('releases/brique-rose-400.webp')).toEqual([]);
    expect(pictureCopies('slides/rentree.webp')).toEqual([]);
  });
});

describe('the pictures an editor uploaded (docs/content.md, « Pictures »)', () => {
  const NAME = '0123456789abcdef0123456789abcdef';

  it('offer the copy the site made beside them', () => {
    expect(pictureSrcSet(`/media/${NAME}-1600.webp`)).toBe(
      `/media/${NAME}-800.webp 800w, /media/${NAME}-1600.webp 1600w`,
    );
    expect(pictureSrcSet(`/media/${NAME}-600.webp`)).toBe(`/media/${NAME}-400.webp 400w, /media/${NAME}-600.webp 600w`);
    // A team photo comes in one width; an address that is not one of the site's names, in none.
    expect(pictureSrcSet(`/media/${NAME}-480.webp`)).toBeUndefined();
    expect(pictureSrcSet(`/media/../${NAME}-1600.webp`)).toBeUndefined();
  });

  it('are a residence’s when it has them, else the ones named after its id', () => {
    expect(
      residencePictures({ id: 'axonberg', portrait: `/media/${NAME}-800.webp`, header: `/media/${NAME}-1600.webp` }),
    ).toEqual({
      card: `/media/${NAME}-400.webp`,
      cardSrcSet: `/media/${NAME}-400.webp 400w, /media/${NAME}-800.webp 800w`,
      cardLarge: `/media/${NAME}-800.webp`,
      header: `/media/${NAME}-1600.webp`,
      headerSrcSet: `/media/${NAME}-800.webp 800w, /media/${NAME}-1600.webp 1600w`,
    });
    expect(residencePictures({ id: 'axonberg' })).toEqual({
      card: '/assets/images/residences/axonberg-400.webp',
      cardSrcSet: '/assets/images/residences/axonberg-400.webp 400w, /assets/images/residences/axonberg-800.webp 800w',
      cardLarge: '/assets/images/residences/axonberg-800.webp',
      header: '/assets/images/residences/axonberg-header.webp',
      headerSrcSet: residenceHeaderSrcSet('axonberg'),
    });
  });

  it('are taken by the content at the width of their use only', () => {
    const residence = { id: 'x', artist: 'X', show: 'Y', description: 'Z', styles: [] };
    expect(v.is(residenceEntrySchema, { ...residence, portrait: `/media/${NAME}-800.webp` })).toBe(true);
    expect(v.is(residenceEntrySchema, { ...residence, portrait: `/media/${NAME}-1600.webp` })).toBe(false);
    expect(v.is(residenceEntrySchema, { ...residence, header: 'https://ailleurs.example/x.webp' })).toBe(false);
    const slide = { titre: 'A', description: 'B' };
    expect(v.is(slidesSchema, [{ ...slide, imagePath: `/media/${NAME}-1600.webp` }])).toBe(true);
    expect(v.is(slidesSchema, [{ ...slide, imagePath: `/media/${NAME}-800.webp` }])).toBe(false);
    const member = { title: 'Léa', description: 'Graphisme' };
    expect(v.is(teamSchema, [{ ...member, imagePath: `/media/${NAME}-480.webp` }])).toBe(true);
    const release = { href: '/album/essai', title: 'Essai', artist: 'X' };
    expect(v.is(releasesContentSchema, [{ ...release, image: `/media/${NAME}-600.webp` }])).toBe(true);
    expect(v.is(releasesContentSchema, [{ ...release, image: `/media/${NAME}.webp` }])).toBe(false);
  });
});
