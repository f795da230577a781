import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

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
});
