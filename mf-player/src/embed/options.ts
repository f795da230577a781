// The partner's options, checked where they enter: shared by the first script (host.ts) and the
// player it loads on the first play (mount.tsx).
import type { EmbedOptions } from '@collectif/shared/embed';

/** The options of `CollectifPlayer.mount` and of the `<collectif-player>` attributes. */
export interface MountOptions extends Partial<EmbedOptions> {
  /** The collective's API, absolute (e.g. https://radio.example.org/api). */
  apiBase?: string;
  /** The live stream; relative URLs are read against the API's origin. */
  streamUrl?: string;
  /**
   * The live's timeline, « Reprendre au début » and the hours the site keeps (docs/embed.md, « The
   * timeline »): off unless true, attribute `differe`. A partner's page plays the live as before.
   */
  timeline?: boolean;
  /**
   * The player's queue (docs/embed.md, « The queue »): the `queue-add` events of the partner's
   * page are ignored unless true, attribute `file`.
   */
  queue?: boolean;
}

/** `value` as an absolute http(s) address, or a French error naming the option. */
export function httpUrl(value: string, option: string, base: string = globalThis.location.href): string {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new TypeError(`CollectifPlayer : l’option « ${option} » n’est pas une adresse valide (${value}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`CollectifPlayer : l’option « ${option} » doit être une adresse http(s) (${value}).`);
  }
  return url.href;
}

/** Styles live in the player's shadow root: the partner's CSS and ours cannot touch each other. */
export function adoptStyles(root: ShadowRoot, css: string): void {
  const canAdopt =
    'adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;
  if (canAdopt) {
    // Constructed sheets also pass a partner's Content-Security-Policy that forbids inline <style>.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  root.appendChild(style);
}

/**
 * The ink (text and icons) that reads on `colour`, a partner's accent: near-black on light colours,
 * white on dark ones, whichever contrasts more (WCAG relative luminance).
 */
export function inkFor(colour: string): string {
  const channel = (offset: number) => {
    const value = Number.parseInt(colour.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // Contrast with white (1.05 / (L + 0.05)) against contrast with #1a1400 (about L = 0.007).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.057 ? '#ffffff' : '#1a1400';
}
