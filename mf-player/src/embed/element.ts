import { readEmbedOptions } from '@collectif/shared/embed';
import { embedPlayer, type EmbeddedPlayer } from './host';
import type { MountOptions } from './options';

export const ELEMENT_NAME = 'collectif-player';

/**
 * `<collectif-player api-base="https://…/api" stream-url="…" episode="…" residence="…" theme="clair"
 * couleur="#1e90ff" format="carte" differe file>`: shows the player when it enters the page, removes it when it
 * leaves (docs/embed.md). Attributes left out use `defaults`.
 */
export function defineCollectifPlayer(defaults: MountOptions, css: string): void {
  if (customElements.get(ELEMENT_NAME) !== undefined) return;

  class CollectifPlayerElement extends HTMLElement {
    private mounted: EmbeddedPlayer | null = null;

    connectedCallback(): void {
      if (this.mounted !== null) return;
      const options: MountOptions = { ...defaults, ...readEmbedOptions((name) => this.getAttribute(name)) };
      const apiBase = this.getAttribute('api-base');
      const streamUrl = this.getAttribute('stream-url');
      if (apiBase !== null && apiBase.trim() !== '') options.apiBase = apiBase.trim();
      if (streamUrl !== null && streamUrl.trim() !== '') options.streamUrl = streamUrl.trim();
      if (this.hasAttribute('differe')) options.timeline = true;
      if (this.hasAttribute('file')) options.queue = true;
      try {
        this.mounted = embedPlayer(this, options, css);
      } catch (error) {
        // A wrong attribute is the integrator's to fix: said in the console, and nothing else breaks.
        console.error(error instanceof Error ? error.message : error);
      }
    }

    disconnectedCallback(): void {
      this.mounted?.unmount();
      this.mounted = null;
    }
  }

  customElements.define(ELEMENT_NAME, CollectifPlayerElement);
}
