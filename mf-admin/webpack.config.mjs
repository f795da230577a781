import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

export default federatedConfig({
  name: 'admin', // its exposed modules and dev port: shared/parts.mjs
  dir: fileURLToPath(new URL('.', import.meta.url)),
  html: true,
});
