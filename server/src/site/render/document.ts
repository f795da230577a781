import { SSR_STATE_ID, siteConfig } from '@collectif/shared';
import { headTags, type PageHead } from '@collectif/shared/seo';
import { inlineJson } from '../hints';

/**
 * The page as sent: the shell's built index.html with the page's head in place of its default
 * title and description, the server's HTML inside #root and the store beside it (docs/rendering.md).
 */
export function composeDocument(
  template: string,
  page: { head: PageHead; body: string; state: unknown; extraHead: string },
): string {
  // Replacements are functions: a `$` in the page's text must never be read as a pattern.
  return template
    .replace(/<meta name="?description"? content="[^"]*"\s*\/?>/, () => '')
    .replace(/<title>[^<]*<\/title>/, () => headTags(page.head, siteConfig.name))
    .replace('</head>', () => `${page.extraHead}</head>`)
    .replace(
      /<div id="?root"?><\/div>/,
      () => `<div id="root">${page.body}</div>${inlineJson(SSR_STATE_ID, page.state)}`,
    );
}

/** A French page for an address that cannot be read (undecodable characters), with status 400. */
export function invalidAddressPage(): string {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Adresse invalide</title></head><body><main><h1>Adresse invalide</h1><p>Cette adresse contient des caractères illisibles.</p><p><a href="/">Retour à l'accueil</a></p></main></body></html>`;
}
