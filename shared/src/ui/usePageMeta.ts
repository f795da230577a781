/**
 * Kept for parts built before « One head » (docs/head.md): their page components call it, and a
 * part deploys on its own day, so the shared library still answers it for one version. It does
 * nothing: the shell sets every page's head from the page's definition (or the page table when a
 * part has none). Removed once every part is built without it (docs/parts.md, « The contract's
 * versions »).
 * @deprecated Export the page's definition as `page` from its module instead.
 */
export function usePageMeta(_title: string, _description?: string): void {
  // Nothing to do: see above.
}
