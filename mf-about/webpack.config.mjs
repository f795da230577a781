import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

export default federatedConfig({
  name: 'about',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  // The whole public API of this remote (shared/src/remotes.ts, RemoteContract['about']).
  exposes: {
    './AboutPage': './src/exposed/AboutPage.tsx',
  },
  html: true,
});
