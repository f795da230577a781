import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

const about = JSON.parse(readFileSync(new URL('./content/about.json', import.meta.url), 'utf8'));

export default federatedConfig({
  name: 'about', // its exposed modules and dev port: shared/parts.mjs
  dir: fileURLToPath(new URL('.', import.meta.url)),
  html: true,
  // The page's largest paint: the intro image (src/about/ContentImage.tsx), preloaded from the HTML.
  pageHints: { AboutPage: [{ as: 'image', href: about.intro.image.src, fetchpriority: 'high' }] },
});
