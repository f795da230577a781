import { DEFAULT_DESCRIPTION, useLocation, usePageMeta } from '@collectif/shared';

/**
 * The head the server wrote for the page the visit started on (docs/rendering.md, « Head »): more
 * specific than the table's (a residence's artist and show), so it is kept, and given back when the
 * visitor returns to that page. Other pages get the table's title and description.
 */
let serverHead: { pathname: string; title: string; description: string } | null = null;

/** Remembers the server's head; called once, before the page hydrates. */
export function keepServerHead(pathname: string): void {
  serverHead = {
    pathname,
    title: document.title,
    description: document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content ?? DEFAULT_DESCRIPTION,
  };
}

export function PageMeta({
  title,
  description = DEFAULT_DESCRIPTION,
}: {
  title: string;
  description?: string | undefined;
}) {
  const { pathname } = useLocation();
  const own = serverHead?.pathname === pathname ? serverHead : null;
  usePageMeta(own?.title ?? title, own?.description ?? description);
  return null;
}
