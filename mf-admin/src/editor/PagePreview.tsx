import { useEffect, useId, useRef, useState } from 'react';
import { PAGES, usePageHref } from '@collectif/shared/addresses';
import { PREVIEW_CONTENT, PREVIEW_READY, type PreviewKind } from '@collectif/shared/preview';
import { call, messageOf } from './call';
import { outcomeOf, type Outcome } from './outcome';
import { onPublicSite, publicOrigin } from './publicSite';

/*
 * « Voir l'aperçu de la page » (docs/content.md, « Preview »): the public page itself, in a frame,
 * showing the form's content as visitors would get it once published. The site checks the content
 * and makes it safe (`POST /api/content/…/preview`, which saves nothing); the frame's shell takes it
 * into its own store when it says it is ready (shared/src/preview.ts). Following a link in the frame
 * keeps the preview: each page there says it is ready and gets the content again.
 *
 * The page is the public site's, on its origin (`publicOrigin`: the editor app's configuration, or
 * the editor's own origin when it is served as a part of the public site). The draft runs there with
 * the teams' code, the public page's scripts: the frame is sandboxed (`FRAME_SANDBOX`), the content
 * is sent to the public origin alone, and only that origin's messages, from that frame, are heard.
 */

/**
 * What the framed page may do: run its scripts as its own origin (its shell, its parts, its /api),
 * send its forms and open a link in a new window; not navigate the editor's tab, open a dialog
 * (`alert`), download or lock the pointer. It holds against a page of another origin than the
 * editor's (the editor app on its own origin); a frame of the editor's own origin could lift it with
 * its scripts, as it could reach the editor's window anyway.
 */
export const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups';

/** The page each kind shows on, by the module that renders it (its address from the route table). */
const PAGE_OF = {
  residences: PAGES.residence,
  about: PAGES.about,
  team: PAGES.about,
  slides: PAGES.home,
  releases: PAGES.label,
} as const;

const PAGE_NAMES: Record<PreviewKind, string> = {
  residences: 'la page de la résidence',
  about: 'la page À propos',
  team: 'la page À propos',
  slides: 'l’accueil',
  releases: 'la page du label',
};

type Source =
  { kind: Exclude<PreviewKind, 'residences'>; data: unknown } | { kind: 'residences'; entry: { readonly id: string } };

export function PagePreview({
  source,
  onRefused,
}: {
  /** What the form would publish: a residence's entry, or a whole kind. */
  source: Source;
  /** A refusal of the site's (the schema's lines), for the form to show beside its fields. */
  onRefused: (outcome: Outcome) => void;
}) {
  const frameId = useId();
  const href = usePageHref();
  const frame = useRef<HTMLIFrameElement>(null);
  const content = useRef<unknown>(null);
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const path =
    source.kind === 'residences' ? href(PAGE_OF.residences, { id: source.entry.id }) : href(PAGE_OF[source.kind]);
  // The public page's origin: the only one the content is sent to, the only one heard.
  const origin = publicOrigin();

  const send = () => {
    frame.current?.contentWindow?.postMessage(
      { type: PREVIEW_CONTENT, kind: source.kind, data: content.current },
      origin,
    );
  };

  // Each page the frame shows says when it is ready; it gets the latest content.
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.origin !== origin || event.source !== frame.current?.contentWindow) return;
      if ((event.data as { type?: unknown } | null)?.type === PREVIEW_READY) send();
    };
    window.addEventListener('message', listen);
    return () => {
      window.removeEventListener('message', listen);
    };
  });

  async function preview() {
    setBusy(true);
    setError(null);
    try {
      const answer = await (source.kind === 'residences'
        ? call<{ data: unknown }>('POST', `/content/residences/${encodeURIComponent(source.entry.id)}/preview`, {
            entry: source.entry,
          })
        : call<{ data: unknown }>('POST', `/content/${source.kind}/preview`, { data: source.data }));
      content.current = answer.data;
      if (shown) send();
      else setShown(true);
    } catch (failure) {
      const outcome = outcomeOf(failure);
      if (outcome.kind === 'invalid') {
        onRefused(outcome);
        setError('L’aperçu ne peut pas montrer un contenu refusé : corrigez les champs signalés.');
      } else setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  if (path === null) return null;
  return (
    <section className="admin-preview" aria-labelledby={`${frameId}-titre`}>
      <h3 id={`${frameId}-titre`}>Aperçu de {PAGE_NAMES[source.kind]}</h3>
      <p className="admin-field__hint">
        La page publique elle-même, avec vos modifications : rien n’est publié avant « Publier ».
      </p>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => {
          void preview();
        }}
      >
        {busy ? 'Aperçu ...' : shown ? 'Mettre à jour l’aperçu' : 'Voir l’aperçu de la page'}
      </button>
      {error === null ? null : (
        <p className="admin-field__error" role="alert">
          {error}
        </p>
      )}
      {shown ? (
        <iframe
          ref={frame}
          className="admin-preview__frame"
          title={`Aperçu de ${PAGE_NAMES[source.kind]}`}
          src={onPublicSite(path)}
          sandbox={FRAME_SANDBOX}
        />
      ) : null}
    </section>
  );
}
