// Whether visitors see a change, not a test: the server HTML of every route from two built checkouts
// (this one and --before=DIR, each served by its own server, the same SITE_ORIGIN), compared once
// what is expected to differ between two builds is set aside: the files' content hashes and the
// policy's hashes, the numbered chunks webpack splits a part into, and the store's state in the page
// (the data, whose shape a contract's version may change). Prints the routes that differ, and where.
//   node bench/same-html.mjs --before=DIR
import { startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';
import { routePaths } from './lib/routes.mjs';
import { fileURLToPath } from 'node:url';

const before = arg('before', undefined);
if (before === undefined) throw new Error('--before=DIR : un autre dépôt, construit');
const after = fileURLToPath(new URL('..', import.meta.url));
const env = { SITE_ORIGIN: 'https://radio.example.org' };

/** The HTML without what two builds of the same code are expected to differ by. */
const comparable = (html) =>
  html
    .replace(/\.(?:[0-9a-f]{32}|[0-9a-f]{10})\.(js|css|woff2)/g, '.HASH.$1')
    .replace(/sha256-[A-Za-z0-9+/=]+/g, 'sha256-X')
    .replace(/(<script[^>]*id="ssr-state"[^>]*>)[\s\S]*?(<\/script>)/, '$1$2')
    .replace(/\{"href":"\/mf-[a-z]+\/\d+\.HASH\.js","as":"script"\},?/g, '')
    .replace(/<link rel="modulepreload"[^>]*\/\d+\.HASH\.js"[^>]*>/g, '');

const ports = [await freePort(), await freePort()];
const servers = [await startServer(before, ports[0], env), await startServer(after, ports[1], env)];
let same = 0;
try {
  for (const route of routePaths) {
    const [old, now] = await Promise.all(
      ports.map(async (port) => comparable(await (await fetch(`http://127.0.0.1:${String(port)}${route}`)).text())),
    );
    if (old === now) {
      same += 1;
      continue;
    }
    let at = 0;
    while (old[at] === now[at]) at += 1;
    console.log(`${route} : différent à l'octet ${String(at)}`);
    console.log(`  avant : ${old.slice(Math.max(0, at - 80), at + 120)}`);
    console.log(`  après : ${now.slice(Math.max(0, at - 80), at + 120)}`);
  }
} finally {
  for (const server of servers) server.kill();
}
console.log(`${String(same)} routes sur ${String(routePaths.length)} : le même HTML, aux empreintes près`);
process.exitCode = same === routePaths.length ? 0 : 1;
