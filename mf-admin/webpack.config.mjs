import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

export default federatedConfig({
  name: 'admin', // its exposed modules and dev port: shared/parts.mjs
  dir: fileURLToPath(new URL('.', import.meta.url)),
  html: true,
  // The editor app, for the editor's own origin (docs/content.md, « The editor app »): dist/editor/.
  app: { folder: 'editor', entry: './src/app/index.ts' },
});
