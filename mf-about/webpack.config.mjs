import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

const about = JSON.parse(readFileSync(new URL('./content/about.json', import.meta.url), 'utf8'));

export default federatedConfig({
  name: 'about',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  // The whole public API of this remote (shared/src/remotes.ts, RemoteContract['about']).
  exposes: {
    './AboutPage': './src/exposed/AboutPage.tsx',
  },
  html: true,
  // The page's largest paint: the intro image (src/about/ContentImage.tsx), preloaded from the HTML.
  pageHints: { AboutPage: [{ as: 'image', href: about.intro.image.src, fetchpriority: 'high' }] },
});
