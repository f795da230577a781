// @ts-check
// Volunteers' and feeds' descriptions as the safe HTML the pages show (docs/rendering.md, « Safe
// HTML »): sanitised once, where the text enters the site (the content when a part is built, a
// feed's items when the server reads it), never while a page renders, so that no render needs a DOM.
// Plain text with a little HTML: line breaks become <br>, and everything but emphasis, breaks and
// http(s)/mailto links (opened in a new tab) is dropped, by DOMPurify on a jsdom window.
const createDOMPurify = require('dompurify');

/** What a description may keep. */
const ALLOWED_TAGS = ['em', 'strong', 'b', 'i', 'br', 'a'];
const SAFE_HREF = /^(https?:|mailto:)/i;
/** Text without these is its own HTML once its line breaks are <br> (what DOMPurify would write). */
const MARKUP = /[<>&\u00a0]/;
const LINE_BREAK = /\r\n?|\n/g;

/** @type {import('dompurify').DOMPurify | undefined} */
let purifier;

function purify() {
  if (purifier !== undefined) return purifier;
  // jsdom is loaded on the first text that holds markup only (it is 10 MB of a thread's memory).
  const { JSDOM } = require('jsdom');
  const made = createDOMPurify(/** @type {any} */ (new JSDOM('').window));
  made.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href')?.trim() ?? '';
    if (!SAFE_HREF.test(href)) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  purifier = made;
  return made;
}

/**
 * A description as safe HTML.
 * @param {string} text plain text with a little HTML
 * @returns {string}
 */
function safeHtml(text) {
  const withBreaks = text.replace(LINE_BREAK, '<br>');
  if (!MARKUP.test(text)) return withBreaks;
  return purify().sanitize(withBreaks, { ALLOWED_TAGS, ALLOWED_ATTR: ['href'] });
}

/**
 * A webpack loader, and a jest transform, for the residences' content file: each description as safe
 * HTML in the built part, the same in the part's tests.
 * @param {string} source the file's JSON
 * @returns {string}
 */
function safeResidences(source) {
  /** @type {unknown} */
  const residences = JSON.parse(source);
  if (!Array.isArray(residences)) return source;
  const safe = residences.map((entry) =>
    entry !== null && typeof entry === 'object' && typeof entry.description === 'string'
      ? { ...entry, description: safeHtml(entry.description) }
      : entry,
  );
  return JSON.stringify(safe);
}

module.exports = { safeHtml, safeResidences };
