import { useState, type ReactNode } from 'react';
import { ExternalLink } from './ExternalLink';

interface EmbedFacadeProps {
  /** What the frame shows, e.g. « Agenda de la radio ». */
  name: string;
  /** Who provides it, e.g. « Google Agenda »: the visitor decides knowing who is contacted. */
  provider: string;
  /** The button's words, e.g. « Afficher l'agenda ». */
  showLabel: string;
  /** The same content on the provider's own site, offered beside the button and under the frame. */
  directUrl: string;
  directLabel: string;
  /** The frame, rendered only once the visitor asked for it; it fills the box. */
  children: ReactNode;
  /** Sizes the box (the frame's size), the same before and after the click: nothing moves. */
  className: string;
}

/**
 * A third party's frame behind a click (docs/interface.md, "Third-party embeds"). Until the visitor
 * asks, nothing is requested from the provider: a placeholder of the frame's size says what it is and
 * who provides it, and offers the provider's page as a plain link. A blocked provider (privacy
 * extension, school or office network, no consent yet) therefore never shows a broken frame.
 */
export function EmbedFacade({
  name,
  provider,
  showLabel,
  directUrl,
  directLabel,
  children,
  className,
}: EmbedFacadeProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className={`embed ${className}`}>
      <div className="embed__box">
        {shown ? (
          children
        ) : (
          <div className="embed__facade" role="group" aria-label={name}>
            <p className="embed__name">{name}</p>
            <p className="embed__note">{`Fourni par ${provider} : rien n'est chargé depuis ce service avant votre clic.`}</p>
            <div className="embed__actions">
              <button
                type="button"
                className="button"
                onClick={() => {
                  setShown(true);
                }}
              >
                {showLabel}
              </button>
              <ExternalLink className="button button--ghost" href={directUrl}>
                {directLabel}
              </ExternalLink>
            </div>
          </div>
        )}
      </div>
      {shown ? (
        <p className="embed__direct">
          <ExternalLink href={directUrl}>{directLabel}</ExternalLink>
        </p>
      ) : null}
    </div>
  );
}
