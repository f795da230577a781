import { siteConfig } from '@collectif/shared';
import {
  embedCspLines,
  embedFrameSnippet,
  embedHeightListenerSnippet,
  embedScriptSnippet,
  type EmbedOptions,
} from '@collectif/shared/embed';
import { CodeBlock } from './CodeBlock';

export const CSP_LABEL = 'Les lignes à ajouter à votre Content-Security-Policy';
const CSP_HINT = 'Seulement si votre site envoie cet en-tête ; sinon, rien à faire.';

/** The code to paste, for a site that accepts scripts and for one that accepts only iframes. */
export function EmbedCode({
  options,
  origin,
  streamOrigin,
}: {
  options: EmbedOptions;
  origin: string;
  streamOrigin: string | null;
}) {
  return (
    <>
      <section className="integrer__way" aria-labelledby="integrer-script">
        <h3 id="integrer-script">Avec un script</h3>
        <p className="integrer__way-intro">
          Pour un site qui accepte les scripts : le lecteur prend la largeur de son emplacement et sa propre hauteur.
        </p>
        <CodeBlock label="Le code du lecteur (script)" code={embedScriptSnippet(origin, options)} />
        <CodeBlock label={CSP_LABEL} hint={CSP_HINT} code={embedCspLines(origin, streamOrigin, 'script').join('\n')} />
      </section>
      <section className="integrer__way" aria-labelledby="integrer-iframe">
        <h3 id="integrer-iframe">Avec une iframe</h3>
        <p className="integrer__way-intro">
          Pour un site qui n’accepte que les iframes (WordPress.com, Notion, la version web d’une lettre
          d’information…).
        </p>
        <CodeBlock label="Le code du lecteur (iframe)" code={embedFrameSnippet(origin, options, siteConfig.name)} />
        <CodeBlock
          label="Pour que l’iframe prenne la hauteur du lecteur"
          hint="Facultatif : une fois par page, après les lecteurs. Un site à la Content-Security-Policy stricte le met dans un de ses fichiers .js."
          code={embedHeightListenerSnippet(origin)}
        />
        <CodeBlock label={CSP_LABEL} hint={CSP_HINT} code={embedCspLines(origin, streamOrigin, 'iframe').join('\n')} />
      </section>
    </>
  );
}
