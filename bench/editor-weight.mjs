// What the volunteers' editor (mf-admin) weighs, and proof that the public pages carry none of it:
// the built site on loopback, each page loaded cold in Debian's Chromium at 390×844, the bytes of
// every request under /mf-admin/ counted (compressed, as sent). Not a test.
// Writes bench/results/editor-weight.md and .json.
//   node bench/editor-weight.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldLoad, launch, startServer } from './lib/browser.mjs';
import { freePort } from './lib/cli.mjs';
import { routes } from './lib/routes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const kib = (bytes) => Math.round((bytes / 1024) * 10) / 10;

const port = await freePort();
const origin = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port);
const browser = await launch();
try {
  const pages = [{ name: 'éditeur', path: '/admin' }, ...routes];
  const rows = [];
  for (const { name, path } of pages) {
    const load = await coldLoad(browser, `${origin}${path}`);
    const editor = load.requestList.filter((r) => new URL(r.url).pathname.startsWith('/mf-admin/'));
    const scripts = load.requestList.filter((r) => r.type === 'Script');
    rows.push({
      name,
      path,
      editorRequests: editor.length,
      editorKiB: kib(editor.reduce((sum, r) => sum + r.bytes, 0)),
      editorScriptKiB: kib(editor.filter((r) => r.type === 'Script').reduce((sum, r) => sum + r.bytes, 0)),
      allScriptKiB: kib(scripts.reduce((sum, r) => sum + r.bytes, 0)),
    });
    console.log(rows.at(-1));
  }
  mkdirSync(results, { recursive: true });
  writeFileSync(
    join(results, 'editor-weight.json'),
    `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`,
  );
  writeFileSync(
    join(results, 'editor-weight.md'),
    [
      `# The editor's weight (${new Date().toISOString().slice(0, 10)})`,
      '',
      'Cold load in Chromium at 390×844, compressed bytes as sent; `node bench/editor-weight.mjs`.',
      '',
      '| page | requests to /mf-admin/ | their KiB | of which JS KiB | all JS of the page, KiB |',
      '| --- | --- | --- | --- | --- |',
      ...rows.map(
        (r) =>
          `| ${r.path} | ${String(r.editorRequests)} | ${String(r.editorKiB)} | ${String(r.editorScriptKiB)} | ${String(r.allScriptKiB)} |`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  await browser.close();
  server.kill();
}
