import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

export default federatedConfig({
  name: 'player',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  // The whole public API of this remote (shared/src/remotes.ts, RemoteContract['player']).
  exposes: {
    './Player': './src/exposed/Player.tsx',
  },
  html: true,
});
