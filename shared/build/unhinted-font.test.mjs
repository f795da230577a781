// The display face as the build emits it (shared/build/unhinted-font.cjs): what a visitor downloads.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import fontverter from 'fontverter';

const require = createRequire(import.meta.url);
const { unhint } = require('./unhinted-font.cjs');
const original = readFileSync(require.resolve('@fontsource/archivo-black/files/archivo-black-latin-400-normal.woff2'));

/** The tables of a font (its sfnt form), by tag. @param {Buffer} woff2 */
async function tablesOf(woff2) {
  const sfnt = Buffer.from(await fontverter.convert(woff2, 'truetype'));
  /** @type {Map<string, Buffer>} */
  const tables = new Map();
  for (let i = 0; i < sfnt.readUInt16BE(4); i += 1) {
    const record = 12 + 16 * i;
    const offset = sfnt.readUInt32BE(record + 8);
    tables.set(
      sfnt.toString('latin1', record, record + 4),
      sfnt.subarray(offset, offset + sfnt.readUInt32BE(record + 12)),
    );
  }
  return tables;
}

/** Whether the name table holds `text` (Windows records are UTF-16BE). @param {Buffer} name @param {string} text */
function names(name, text) {
  return name.includes(Buffer.from(text, 'utf16le').swap16()) || name.includes(Buffer.from(text, 'latin1'));
}

describe('the display face without hinting', () => {
  it('drops the hinting: instructions, control values and their program', async () => {
    const before = await tablesOf(original);
    const after = await tablesOf(await unhint(original));
    for (const tag of ['fpgm', 'prep', 'cvt ']) {
      expect(before.has(tag)).toBe(true);
      expect(after.has(tag)).toBe(false);
    }
  });

  it('is about half the file a visitor used to download', async () => {
    const font = await unhint(original);
    expect(font.subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect(font.length).toBeLessThan(original.length * 0.55);
  });

  it('keeps every glyph, every character, the kerning and the ligatures', async () => {
    const before = await tablesOf(original);
    const after = await tablesOf(await unhint(original));
    // maxp's glyph count, and the whole character map.
    expect(after.get('maxp')?.readUInt16BE(4)).toBe(before.get('maxp')?.readUInt16BE(4));
    expect(after.get('cmap')?.equals(/** @type {Buffer} */ (before.get('cmap')))).toBe(true);
    for (const tag of ['GPOS', 'GSUB', 'hmtx']) expect(after.has(tag)).toBe(true);
  });

  it('keeps the copyright notice that the SIL Open Font License asks every copy to carry', async () => {
    const name = /** @type {Buffer} */ ((await tablesOf(await unhint(original))).get('name'));
    expect(names(name, 'Copyright 2017 The Archivo Black Project Authors')).toBe(true);
    expect(names(name, 'Archivo Black')).toBe(true);
  });

  it('fails the build with the file named when the file is not a font', async () => {
    await expect(unhint(Buffer.from('<html>404</html>'))).rejects.toThrow();
  });
});
