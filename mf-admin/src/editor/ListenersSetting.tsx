import { useId } from 'react';
import { StatusMessage } from '@collectif/shared/ui';
import type { Version } from './outcome';
import { PublishFooter, saveKind, useVersionForm } from './publish';

/*
 * « N à l'écoute » in the player (the kind `figures`, docs/figures.md; docs/content.md, « Mes
 * chiffres »): an admin turns it on or off; off until then. The site refuses anyone else.
 */

interface Setting {
  showListeners: boolean;
}

/** A version's setting, defensively: anything but `true` is off. */
function readSetting(version: Version): Setting {
  const data = (typeof version.data === 'object' && version.data !== null ? version.data : {}) as Record<
    string,
    unknown
  >;
  return { showListeners: data.showListeners === true };
}

export function ListenersSetting() {
  const formId = useId();
  const form = useVersionForm<Setting>({
    kind: 'figures',
    read: readSetting,
    send: (value, basedOn) => saveKind('figures')(value, basedOn),
  });
  const { loaded, failure } = form;
  if (failure !== null) return <StatusMessage kind="error">{failure}</StatusMessage>;
  if (loaded === null) return <StatusMessage kind="loading">Chargement du réglage ...</StatusMessage>;
  const { value, basedOn } = loaded;
  const switchId = `${formId}-ecoute`;
  return (
    <form
      className="admin-form"
      aria-labelledby={`${formId}-titre`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        form.publish(basedOn);
      }}
    >
      <h4 id={`${formId}-titre`}>Dans le lecteur du site</h4>
      <div className="admin-field admin-field--check">
        <input
          id={switchId}
          type="checkbox"
          checked={value.showListeners}
          aria-describedby={`${switchId}-aide`}
          onChange={(event) => {
            const on = event.target.checked;
            form.edit(() => ({ showListeners: on }));
          }}
        />
        <label htmlFor={switchId}>Afficher « N à l’écoute » pendant le direct</label>
        <p className="admin-field__hint" id={`${switchId}-aide`}>
          Le nombre d’auditeurs du direct, pour tous les visiteurs, à partir de 5 ; en dessous, rien ne s’affiche.
        </p>
      </div>
      <PublishFooter
        form={form}
        saved="le lecteur en tient compte au prochain titre annoncé."
        theirs={(current) => <p>« À l’écoute » {readSetting(current).showListeners ? 'affiché' : 'masqué'}</p>}
      />
    </form>
  );
}
