import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';
import { residenceImages, residencePictureUrls } from '../shared/src/residenceImages.mjs';

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const [firstSlide] = read('./content/slides.json');
const [firstResidence] = read('../shared/content/residences.json');
const firstCardImages = firstResidence === undefined ? null : residenceImages(firstResidence.id);
const firstCard =
  firstCardImages === null
    ? null
    : {
        as: 'image',
        href: firstCardImages.card,
        imagesrcset: firstCardImages.cardSrcSet,
        imagesizes: '(min-width: 1200px) 18rem, (min-width: 800px) 33vw, 50vw',
        fetchpriority: 'high',
      };

/**
 * Each page's largest paint, preloaded from the HTML (the same attributes as the <img> the page
 * renders: src/home/Carousel.tsx, src/residences/ResidenceCard.tsx, src/exposed/ResidencePage.tsx;
 * an end-to-end test checks that the browser uses the preloaded file).
 */
const pageHints = {
  HomePage:
    firstSlide === undefined
      ? []
      : [
          {
            as: 'image',
            href: firstSlide.imagePath,
            imagesrcset: `${firstSlide.imagePath.replace(/\.webp$/, '-800.webp')} 800w, ${firstSlide.imagePath} 1600w`,
            imagesizes: '(min-width: 75rem) 75rem, 100vw',
            fetchpriority: 'high',
          },
        ],
  ResidencesPage: firstCard === null ? [] : [firstCard],
  ResidencePage: [{ as: 'image', href: residencePictureUrls('{id}').header, fetchpriority: 'high' }],
};

export default federatedConfig({
  name: 'radio', // its exposed modules and dev port: shared/parts.mjs
  dir: fileURLToPath(new URL('.', import.meta.url)),
  html: true,
  pageHints,
});
