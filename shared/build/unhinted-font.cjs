// The display face without its hinting (docs/interface.md, « Typography »). TrueType hinting is
// bytecode that fits outlines to the pixel grid at small sizes on old Windows renderers; phones,
// macOS and current Windows draw the site's display text (headings and the logo, 17 px and larger)
// without reading it, and it was half of the file (18.6 KB of WOFF2, 9.4 KB without). Every
// character and glyph of the file is kept, its kerning and ligatures too, and the name table's
// copyright notice (the SIL Open Font License asks that every copy carries it; the licence's own
// records are kept too when a file has them). HarfBuzz does the work (subset-font).
const subsetFont = require('subset-font');

/** Every code point of the Basic Multilingual Plane: the subset keeps whatever the file maps. */
const EVERY_CHARACTER = (() => {
  let text = '';
  for (let code = 0; code <= 0xffff; code += 1) if (code < 0xd800 || code > 0xdfff) text += String.fromCharCode(code);
  return text;
})();

/** Name records kept: family, style, version and the like (0–6), licence and its address (13, 14). */
const NAME_IDS = [0, 1, 2, 3, 4, 5, 6, 13, 14];

/**
 * @param {Buffer} font a WOFF2 file
 * @returns {Promise<Buffer>} the same font in WOFF2, without hinting
 */
async function unhint(font) {
  return subsetFont(font, EVERY_CHARACTER, { targetFormat: 'woff2', noHinting: true, preserveNameIds: NAME_IDS });
}

/** @this {import('webpack').LoaderContext<unknown>} @param {Buffer} source */
function unhintedFontLoader(source) {
  const callback = this.async();
  unhint(source).then(
    (font) => callback(null, font),
    (/** @type {Error} */ error) => callback(new Error(`Police ${this.resourcePath} : ${error.message}`)),
  );
}

module.exports = unhintedFontLoader;
module.exports.raw = true;
module.exports.unhint = unhint;
