// Quick figure for the platform: first-load JS of the home route (compressed) and federation
// runtime copies. Full suite: npm run bench.
import { fileURLToPath } from 'node:url';
import { coldLoad, launch, startServer } from './lib/browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = 8190;
const server = await startServer(root, port);
const browser = await launch();
try {
  const r = await coldLoad(browser, `http://127.0.0.1:${String(port)}/`);
  const js = r.requestList.filter((x) => x.type === 'Script');
  console.log(
    `requêtes : ${String(r.requests)} ; JS : ${String(js.length)} fichiers, ${(js.reduce((a, x) => a + x.bytes, 0) / 1024).toFixed(1)} KiB transférés`,
  );
  console.log(`octets par type : ${JSON.stringify(r.bytesByType)}`);
  console.log(`copies du runtime de fédération : ${String(r.runtimeCopies)}`);
  for (const x of js)
    console.log(`  ${(x.bytes / 1024).toFixed(1).padStart(6)} KiB ${x.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, '')}`);
} finally {
  await browser.close();
  server.kill();
}
