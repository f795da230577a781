// Quick figure for the platform: first-load JS of the home route (compressed) and federation
// runtime copies. With --reference, also builds the non-federated reference of the same pages
// (as npm run bench does) and prints the home's JavaScript against it. Full suite: npm run bench.
//   node bench/first-load.mjs [--reference [--no-build]]
import { fileURLToPath } from 'node:url';
import { coldLoad, launch, startServer } from './lib/browser.mjs';
import { buildReference, layOutReference, referenceRoot } from './lib/reference.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const withReference = process.argv.includes('--reference');
if (withReference) {
  if (!process.argv.includes('--no-build')) buildReference();
  layOutReference();
}

/** The home's cold load on a server started for it; prints its figures, returns its script bytes. */
async function measure(browser, label, port, env) {
  const server = await startServer(root, port, env);
  try {
    const r = await coldLoad(browser, `http://127.0.0.1:${String(port)}/`);
    const js = r.requestList.filter((x) => x.type === 'Script');
    const bytes = js.reduce((a, x) => a + x.bytes, 0);
    console.log(
      `${label}requêtes : ${String(r.requests)} ; JS : ${String(js.length)} fichiers, ${(bytes / 1024).toFixed(1)} KiB transférés`,
    );
    console.log(`octets par type : ${JSON.stringify(r.bytesByType)}`);
    console.log(`copies du runtime de fédération : ${String(r.runtimeCopies)}`);
    for (const x of js)
      console.log(
        `  ${(x.bytes / 1024).toFixed(1).padStart(6)} KiB ${x.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, '')}`,
      );
    return bytes;
  } finally {
    server.kill();
  }
}

const browser = await launch();
try {
  const federated = await measure(browser, withReference ? 'fédéré : ' : '', 8190, {});
  if (withReference) {
    const reference = await measure(browser, 'référence : ', 8191, { DIST_ROOT: referenceRoot });
    console.log(`JS de l'accueil, fédéré / référence : ${(federated / reference).toFixed(3)}×`);
  }
} finally {
  await browser.close();
}
