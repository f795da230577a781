import { gridSquare, pictureCopies, pictureSrcSet, preloadSrcSet, residenceHeaderSrcSet } from './pictures.mjs';

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
