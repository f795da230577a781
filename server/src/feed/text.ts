import { decodeHTML } from 'entities';
import { safeHtml as sanitise } from '@collectif/shared/build/safe-html.cjs';

/**
 * Plain text from a description that may hold a little HTML: tags dropped, breaks kept as spaces,
 * entities read as a browser reads them (`entities`: every named and numeric one, so that `&amp;` is
 * one `&` once escaped again for XML, not `&amp;amp;`, and `&eacute;` an é).
 */
export function plain(value: string): string {
  return decodeHTML(value.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A feed item's description as the episode page shows it, sanitised once, when the feed is read
 * (docs/rendering.md, « Safe HTML »): emphasis, line breaks and safe links kept, the rest dropped.
 */
export function safeHtml(value: string): string {
  return sanitise(value);
}
