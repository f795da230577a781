import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hrefOf, type AddressedPage } from '@collectif/shared/addresses';
import { LIVE_ANCHOR, webManifest } from './manifest';
import { INSTALL_SCREENSHOTS } from './screenshots.mjs';

const ROOT = join(__dirname, '..', '..', '..', '..');
const home = (path: string): AddressedPage => ({ path, remote: 'radio', module: 'HomePage' });

interface Manifest {
  screenshots: { src: string; sizes: string; type: string; form_factor: string; label: string }[];
  shortcuts: { name: string; short_name: string; url: string; icons: { src: string; sizes: string }[] }[];
}
const manifestOf = (table: AddressedPage[]) => webManifest(hrefOf(table)) as Manifest;

/** A PNG's size, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the manifest’s install screenshots', () => {
  const { screenshots } = manifestOf([home('')]);

  it('shows a phone’s screen and a computer’s, each with a French label', () => {
    expect(screenshots.map(({ sizes, form_factor }) => [sizes, form_factor])).toEqual([
      ['390x844', 'narrow'],
      ['390x844', 'narrow'],
      ['1280x800', 'wide'],
      ['1280x800', 'wide'],
    ]);
    for (const shot of screenshots) {
      expect(shot.src).toMatch(/^\/assets\/images\/capture-[a-z]+-\d+\.webp$/);
      expect(shot.type).toBe('image/webp');
      expect(shot.label).toMatch(/^L(’accueil|e lecteur) .+ (téléphone|ordinateur)/);
    }
  });

  it('as browsers take them: sides of 320 to 3840 px, the longer at most 2.3 times the other, one ratio per form', () => {
    for (const form of ['narrow', 'wide']) {
      const sizes = new Set(screenshots.filter((shot) => shot.form_factor === form).map((shot) => shot.sizes));
      expect(sizes.size).toBe(1);
    }
    for (const { width, height, form_factor } of INSTALL_SCREENSHOTS) {
      for (const side of [width, height]) expect(side).toBeGreaterThanOrEqual(320);
      expect(Math.max(width, height) / Math.min(width, height)).toBeLessThanOrEqual(2.3);
      expect(form_factor === 'wide').toBe(width > height);
    }
  });

  it('is cut from the reviewed screenshot baselines, which are at least that large', () => {
    for (const { baseline, width, height } of INSTALL_SCREENSHOTS) {
      const size = pngSize(join(ROOT, 'e2e', 'tests', '__screenshots__', 'visual.spec.ts', baseline));
      expect(size.width).toBe(width);
      expect(size.height).toBeGreaterThanOrEqual(height);
    }
  });
});

describe('the manifest’s shortcut to the live stream', () => {
  it('« Écouter le direct » opens home at its live block, with the site’s icon', () => {
    expect(manifestOf([home('')]).shortcuts).toEqual([
      {
        name: 'Écouter le direct',
        short_name: 'Direct',
        description: 'Le direct du studio et son lecteur, sur la page d’accueil',
        url: `/#${LIVE_ANCHOR}`,
        icons: [{ src: '/assets/images/icon-192.png', sizes: '192x192', type: 'image/png' }],
      },
    ]);
  });

  it('follows home where the table of pages puts it, and is left out while home is not there', () => {
    expect(manifestOf([home('accueil')]).shortcuts[0]?.url).toBe(`/accueil#${LIVE_ANCHOR}`);
    expect(manifestOf([]).shortcuts).toEqual([]);
  });
});
