import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const [firstSlide] = read('./content/slides.json');
const [firstResidence] = read('../shared/content/residences.json');
const residenceImage = (id) => `/assets/images/residences/${id}`;
const firstCardImage = firstResidence === undefined ? null : residenceImage(encodeURIComponent(firstResidence.id));
const firstCard =
  firstCardImage === null
    ? null
    : {
        as: 'image',
        href: `${firstCardImage}-400.webp`,
        imagesrcset: `${firstCardImage}-400.webp 400w, ${firstCardImage}-800.webp 800w`,
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
  ResidencePage: [{ as: 'image', href: `${residenceImage('{id}')}-header.webp`, fetchpriority: 'high' }],
};

export default federatedConfig({
  name: 'radio',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  // The whole public API of this remote (shared/src/remotes.ts, RemoteContract['radio']).
  exposes: {
    './HomePage': './src/exposed/HomePage.tsx',
    './ResidencesPage': './src/exposed/ResidencesPage.tsx',
    './ResidencePage': './src/exposed/ResidencePage.tsx',
  },
  html: true,
  pageHints,
});
