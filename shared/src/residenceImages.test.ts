import { residenceImages, residencePictureFiles, residencePictureUrls } from './residenceImages.mjs';

describe('residence pictures', () => {
  it('are named after the id, encoded in addresses', () => {
    expect(residenceImages('Basse Cour')).toEqual({
      card: '/assets/images/residences/Basse%20Cour-400.webp',
      cardSrcSet:
        '/assets/images/residences/Basse%20Cour-400.webp 400w, /assets/images/residences/Basse%20Cour-800.webp 800w',
      header: '/assets/images/residences/Basse%20Cour-header.webp',
    });
  });

  it('keep a page hint placeholder as it is', () => {
    expect(residencePictureUrls('{id}').header).toBe('/assets/images/residences/{id}-header.webp');
  });

  it('are generated as files named with the id as it is, at the sizes the pages show', () => {
    expect(residencePictureFiles('Basse Cour')).toEqual([
      { path: 'residences/Basse Cour-400.webp', width: 400, height: 400 },
      { path: 'residences/Basse Cour-800.webp', width: 800, height: 800 },
      { path: 'residences/Basse Cour-header.webp', width: 1600, height: 600 },
    ]);
  });
});
