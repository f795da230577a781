import { useEffect } from 'react';
import {
  answerStatus,
  scrollToTop,
  StatusMessage,
  useReleasesQuery,
  type PageRoute,
  type RemoteContract,
} from '@collectif/shared';
import { ReleaseGrid } from '../releases/ReleaseGrid';
import '../releases/label.css';

// The title and meta description ('Label', 'Liste des releases du label') are set by the shell's route.
function LabelPage() {
  const query = useReleasesQuery({});
  const { data: releases, refetch } = query;

  useEffect(() => {
    scrollToTop();
  }, []);

  const status = answerStatus(query);
  let body;
  if (status === 'ready' && releases !== undefined) {
    body = <ReleaseGrid releases={releases} />;
  } else if (status === 'loading') {
    body = <StatusMessage kind="loading">Chargement des sorties du label ...</StatusMessage>;
  } else if (status === 'error') {
    body = (
      <StatusMessage
        kind="error"
        onRetry={() => {
          void refetch();
        }}
      >
        Le catalogue du label est momentanément indisponible. Réessayez dans un instant.
      </StatusMessage>
    );
  } else {
    body = <StatusMessage kind="empty">Aucune sortie pour le moment : revenez bientôt !</StatusMessage>;
  }

  return (
    <div className="page label-page">
      <h1>Label</h1>
      <p className="label-page__intro">
        Toutes nos sorties, de la plus récente à la plus ancienne. Chaque pochette ouvre la page d'écoute et d'achat du
        label dans un nouvel onglet.
      </p>
      {body}
    </div>
  );
}

export default LabelPage satisfies RemoteContract['label']['LabelPage'];

/** Its data and head, read alike by the server and the browser. */
export { label as page } from '../pages/label';

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'label',
  title: 'Label',
  description: 'Liste des releases du label',
  area: 'La page du label',
  menu: 'Label',
};
