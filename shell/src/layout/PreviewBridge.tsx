import { useEffect, useState } from 'react';
import { useAppStore } from '@collectif/shared';
import { applyPreview, PREVIEW_READY, previewParentOrigins, readPreviewMessage } from '@collectif/shared/preview';
import { whenInteractive } from '../boot/interactive';

/*
 * The page's half of the editor's preview (docs/content.md, « Preview »): in a frame of the site's
 * editor, once the page is interactive (hydrated: a store changed earlier would not match the
 * server's HTML), says so to the editor, takes the content it answers into this window's store, and
 * says on the page that it shows a preview. The editor is on the site's own origin or on its own
 * (EDITOR_ORIGIN, which the server writes into the page: `previewParentOrigins`). Anywhere else it
 * does nothing: a page that is not in a frame, or whose parent is of any other origin, never hears a
 * message, and its « ready » reaches no one (the browser delivers it only to a parent of the origin
 * it names).
 */
export function PreviewBridge({ zone }: { zone: string }) {
  const store = useAppStore();
  const [previewing, setPreviewing] = useState(false);
  useEffect(() => {
    if (window.parent === window) return undefined;
    const origins = previewParentOrigins(document, window.location.origin);
    const listen = (event: MessageEvent) => {
      if (event.source !== window.parent || !origins.includes(event.origin)) return;
      const message = readPreviewMessage(event.data);
      if (message === null) return;
      void applyPreview(store, message).then(() => {
        setPreviewing(true);
      });
    };
    window.addEventListener('message', listen);
    const stop = whenInteractive(zone, () => {
      // The parent's origin cannot be read from here: each origin an editor may have is named, and
      // the browser drops the message unless the parent is of that origin.
      for (const origin of origins) window.parent.postMessage({ type: PREVIEW_READY }, origin);
    });
    return () => {
      stop();
      window.removeEventListener('message', listen);
    };
  }, [store, zone]);
  return previewing ? (
    <p className="preview-banner" role="status">
      Aperçu : cette page montre vos modifications, qui ne sont pas encore publiées.
    </p>
  ) : null;
}
