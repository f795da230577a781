import type { RenderHost, RenderTask } from './protocol';
import { createPageRenderer } from './renderer';

// A renderer gives back the garbage of the pages it rendered once its lane, with no page for a while,
// sends it a warm-up (docs/rendering.md, « Memory »): once for those pages, never for nothing.

const host: RenderHost = {
  log: () => undefined,
  reading: () => Promise.resolve(undefined),
  read: () => undefined,
  api: () => Promise.resolve({ status: 502, headers: {}, body: new Uint8Array() }),
  file: () => Promise.reject(new Error('aucun fichier dans ce test')),
};

/** A page task whose part has no container here: it fails, as a page may, after it was taken. */
const page = {
  pathname: '/',
  search: '',
  origin: 'http://127.0.0.1',
  remotes: [],
  distDirs: {},
} as unknown as RenderTask;

describe('a renderer at rest', () => {
  it('collects at the warm-up after pages, once, and never before any page', async () => {
    let collected = 0;
    const renderer = createPageRenderer(() => {
      collected += 1;
    });
    await renderer.run({ warmUp: true }, host);
    expect(collected).toBe(0);
    await renderer.run(page, host).catch(() => undefined);
    expect(collected).toBe(0);
    await renderer.run({ warmUp: true }, host);
    expect(collected).toBe(1);
    await renderer.run({ warmUp: true }, host);
    expect(collected).toBe(1);
  });
});
