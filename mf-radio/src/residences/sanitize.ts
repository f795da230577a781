import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

/** What a residence description may keep: simple emphasis, line breaks and links. */
const ALLOWED_TAGS = ['em', 'strong', 'b', 'i', 'br', 'a'];
const SAFE_HREF = /^(https?:|mailto:)/i;

// An instance of our own per window, so that the hook below never changes how another module
// sanitises. On the server the window is the rendering app's (jsdom, `useDocumentWindow`): the same
// rules, the same HTML.
const purifiers = new WeakMap<Window, Purifier>();

function purifierFor(window: Window): Purifier {
  let purifier = purifiers.get(window);
  if (purifier !== undefined) return purifier;
  purifier = DOMPurify(window as unknown as Parameters<typeof DOMPurify>[0]);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href')?.trim() ?? '';
    if (!SAFE_HREF.test(href)) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  purifiers.set(window, purifier);
  return purifier;
}

/**
 * The description as safe HTML: volunteers write plain text with a little HTML, so line breaks
 * become <br> and everything but emphasis, breaks and http(s)/mailto links is dropped.
 */
export function sanitizeDescription(text: string, window: Window): string {
  const withBreaks = text.replace(/\r\n?|\n/g, '<br>');
  return purifierFor(window).sanitize(withBreaks, { ALLOWED_TAGS, ALLOWED_ATTR: ['href'] });
}
