import { escapeHtml } from '@collectif/shared/seo';

/*
 * A presentation as the public page shows it, for the form's « Aperçu »: every character as text
 * (the site's one HTML escaping), then only the emphasis the site keeps (<em>, <strong>, <b>, <i>,
 * without attributes) and line breaks. Links show as typed; the site itself makes the text safe when
 * it serves it (docs/rendering.md, « Safe HTML »), this is only what the volunteer sees while typing.
 */
export function previewHtml(text: string): string {
  return escapeHtml(text)
    .replace(/&lt;(\/?)(em|strong|b|i)&gt;/g, '<$1$2>')
    .replace(/\r?\n/g, '<br>');
}
