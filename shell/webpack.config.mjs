import { fileURLToPath } from 'node:url';
import { federatedConfig } from '@collectif/shared/build/webpack.mjs';

export default federatedConfig({ name: 'shell', dir: fileURLToPath(new URL('.', import.meta.url)), html: true });
