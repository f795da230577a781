import { useEffect } from 'react';
import { useParams, type PageRoute, type RemoteContract } from '@collectif/shared';
import { ResidenceDetail } from '../residences/ResidenceDetail';
import { useResidence } from '../residences/residences';
import { ResidencesStatus } from '../residences/ResidencesStatus';
import '../styles/residences.css';
import { PageLink, PAGES, SupportLink } from '@collectif/shared/addresses';
import { scrollToTop } from '@collectif/shared/ui';

function NotFound() {
  return (
    <div className="page residence-missing">
      <h1>Résidence introuvable</h1>
      <p>Cette émission n&apos;existe pas ou n&apos;est plus à l&apos;antenne.</p>
      <p>
        <PageLink className="button" page={PAGES.residences}>
          Voir toutes les résidences
        </PageLink>
      </p>
    </div>
  );
}

/** residences/:id: one resident show, or a French 'not found' page for an unknown id. */
function ResidencePage() {
  const { id = '' } = useParams();
  const { residence, status, retry } = useResidence(id);
  useEffect(() => {
    scrollToTop();
  }, [id]);
  if (residence === undefined || residence === null) {
    return status === 'empty' ? (
      <NotFound />
    ) : (
      <div className="page">
        <ResidencesStatus status={status} retry={retry} />
      </div>
    );
  }
  return (
    <div className="page">
      <ResidenceDetail key={residence.id} residence={residence} />
      {/* A gift in the residence's name (docs/support.md): only the site's page can name it. */}
      <p className="residence__support">
        <SupportLink className="button" search={{ residence: residence.id }} external={false}>
          Soutenir {residence.artist}
        </SupportLink>
      </p>
    </div>
  );
}

export default ResidencePage satisfies RemoteContract['radio']['ResidencePage'];

/** Its data and head, read alike by the server and the browser. */
export { residence as page } from '../pages/residence';

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'residences/:id',
  title: 'Résidence',
  area: 'La page de la résidence',
  back: 'residences',
};
