import { useId, useState } from 'react';
import { chooseNotCounted, useNotCounted } from '@collectif/shared/figures';
import './privacy.css';

/** The section's anchor: a link to /a-propos#confidentialite lands on it. */
export const PRIVACY_ID = 'confidentialite';

/**
 * What the site counts of its audience, and « Ne pas être compté » (docs/figures.md, « In the
 * browser »). In the server's page like the rest of About: readable without a script, in the Tab
 * order from the start, and nothing moves under the reader when it comes. The box is drawn unchecked
 * on the server and while the page hydrates, then shows the device's choice.
 */
function Privacy() {
  const checkboxId = useId();
  const hintId = useId();
  const objects = useNotCounted();
  const [said, setSaid] = useState<string | null>(null);

  return (
    <section id={PRIVACY_ID} aria-labelledby={`${PRIVACY_ID}-titre`} className="about-section about-privacy">
      <h2 id={`${PRIVACY_ID}-titre`}>Confidentialité et mesure d’audience</h2>
      <p>
        Le site compte ses auditeurs pour dire à chaque résident·e combien de personnes ont écouté son émission, sans
        suivre personne : aucun cookie, aucune adresse conservée.
      </p>
      <p>
        Sont comptés : l’écoute du direct par le lecteur du site (un signal toutes les deux minutes tant qu’il joue),
        les réécoutes lancées depuis le lecteur (le moment choisi, puis 25, 50, 75 et 100 % atteints) et le nombre
        d’auditeurs que donnent les serveurs de la radio. Un visiteur est compté une fois par jour grâce à une empreinte
        de son adresse et de son navigateur mêlés à un sel tiré chaque jour ; le sel de la veille est effacé partout, et
        l’empreinte ne mène plus à personne.
      </p>
      <p>
        Seuls des totaux par émission, par jour et par heure sont gardés, 25 mois au plus ; un chiffre inférieur à 5
        n’est jamais montré. Cette mesure, limitée à l’audience du site, est dispensée de consentement, mais vous pouvez
        vous y opposer :
      </p>
      <div className="about-privacy__choice">
        <input
          id={checkboxId}
          type="checkbox"
          checked={objects}
          aria-describedby={hintId}
          onChange={(event) => {
            const wanted = event.target.checked;
            setSaid(
              chooseNotCounted(wanted)
                ? wanted
                  ? 'Ce navigateur n’est plus compté : le lecteur n’envoie plus rien.'
                  : 'Ce navigateur est de nouveau compté, anonymement.'
                : 'Ce navigateur ne garde pas ce choix (stockage refusé) : rien n’a changé.',
            );
          }}
        />
        <label htmlFor={checkboxId}>Ne pas être compté</label>
        <p id={hintId} className="about-privacy__hint">
          Ce choix est gardé dans ce navigateur, sur cet appareil.
        </p>
      </div>
      <p className="about-privacy__said" role="status">
        {said}
      </p>
      <p>
        <strong>« Me prévenir »</strong> : le site garde l’adresse d’envoi de votre navigateur et ses clés, les
        résidences et vos deux choix, rien d’autre (ni adresse IP, ni nom de navigateur, ni cookie). Les messages
        passent par le service de notifications du navigateur (Google, Mozilla, Apple ou Microsoft selon le navigateur).
        C’est gardé jusqu’à ce que vous désactiviez « Me prévenir », que ce service dise l’abonnement disparu, ou six
        mois après que votre navigateur l’a renouvelé pour la dernière fois (il le fait de lui-même chaque mois) ; pour
        l’effacer, désactivez-le, ou bloquez les notifications du site dans votre navigateur.
      </p>
      <p>
        Les propositions d’émission et les démos envoyées par le site sont lues par l’équipe de programmation ou du
        label, gardées douze mois au plus, puis effacées ; le lien reçu par courriel les efface à tout moment.
      </p>
    </section>
  );
}

export default Privacy;
