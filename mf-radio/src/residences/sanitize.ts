import DOMPurify from 'dompurify';
import { documentWindow } from '@collectif/shared';

/** What a residence description may keep: simple emphasis, line breaks and links. */
const ALLOWED_TAGS = ['em', 'strong', 'b', 'i', 'br', 'a'];
const SAFE_HREF = /^(https?:|mailto:)/i;

// An instance of our own, so that the hook below never changes how another module sanitises. On the
// server the window is the one the site's server provides (jsdom): the same rules, the same HTML.
const purifier = DOMPurify(documentWindow() as unknown as Parameters<typeof DOMPurify>[0]);

purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href')?.trim() ?? '';
  if (!SAFE_HREF.test(href)) node.removeAttribute('href');
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer');
});

/**
 * The description as safe HTML: volunteers write plain text with a little HTML, so line breaks
 * become <br> and everything but emphasis, breaks and http(s)/mailto links is dropped.
 */
export function sanitizeDescription(text: string): string {
  const withBreaks = text.replace(/\r\n?|\n/g, '<br>');
  return purifier.sanitize(withBreaks, { ALLOWED_TAGS, ALLOWED_ATTR: ['href'] });
}
