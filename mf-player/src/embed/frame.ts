import { EMBED_HEIGHT_MESSAGE } from '@collectif/shared/embed';

/**
 * In the iframe player (`<html data-collectif-cadre>`, docs/embed.md, « The iframe player »): tells
 * the page around the frame the height the player needs, whenever it changes, so that a partner's
 * listener can size the frame. The height is no secret: any page may hear it.
 */
export function reportHeightToParent(): void {
  if (window.parent === window || !document.documentElement.hasAttribute('data-collectif-cadre')) return;
  let last = -1;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: EMBED_HEIGHT_MESSAGE, height }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}
