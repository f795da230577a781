import { useEffect } from 'react';
import {
  Link,
  useReleasesQuery,
  type PageRoute,
  type RemoteContract,
  api,
  releaseUrl,
  type PageDefinition,
} from '@collectif/shared';
import { ReleaseGrid } from '../releases/ReleaseGrid';
import '../releases/label.css';
import { GRID_IMAGE_SIZES, preloadSrcSet } from '@collectif/shared/pictures';
import { musicAlbums } from '@collectif/shared/seo';
import { PAGES, usePageHref } from '@collectif/shared/addresses';
import { answerStatus, scrollToTop, StatusMessage } from '@collectif/shared/ui';

// The title and meta description ('Label', 'Liste des releases du label') are set by the shell's route.
function LabelPage() {
  const query = useReleasesQuery({});
  const { data: releases, refetch } = query;
  // « Envoyer une démo » (docs/proposals.md, « The pages »): shown only where the site has the page.
  const sendDemo = usePageHref()(PAGES.sendDemo);

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
      {sendDemo === null ? null : (
        <p className="label-page__demo">
          Vous faites de la musique et le label vous ressemble ?{' '}
          <Link className="button button--ghost" to={sendDemo}>
            Envoyer une démo
          </Link>
        </p>
      )}
      {body}
    </div>
  );
}

export default LabelPage satisfies RemoteContract['label']['LabelPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  // The first cover, as the grid renders it (releases/ReleaseGrid.tsx): the page's largest paint.
  preloads: ({ state }) => {
    const [first] = api.endpoints.releases.select({})(state).data ?? [];
    return first === undefined || !first.image.startsWith('/') || first.image.startsWith('//')
      ? []
      : [{ href: first.image, ...preloadSrcSet(first.image, GRID_IMAGE_SIZES), fetchpriority: 'high' }];
  },
  // The page's own query ({}), so the browser finds it answered.
  load: ({ dispatch }) => [dispatch(api.endpoints.releases.initiate({}))],
  head: ({ state, origin, href }) => {
    const releases = api.endpoints.releases.select({})(state).data ?? [];
    const [first] = releases;
    return {
      ...(first === undefined
        ? {}
        : { image: { url: new URL(first.image, origin).href, alt: `${first.artist}, ${first.title}` } }),
      jsonLd: [
        musicAlbums({
          url: new URL(href(PAGES.label) ?? '/', origin).href,
          albums: releases.map((release) => ({
            name: release.title,
            artist: release.artist,
            image: new URL(release.image, origin).href,
            url: releaseUrl(release.href),
          })),
        }),
      ],
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'label',
  title: 'Label',
  description: 'Liste des releases du label',
  area: 'La page du label',
  menu: 'Label',
};
