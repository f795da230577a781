import { useEffect, useRef, useState, type RefObject } from 'react';
import {
  siteConfig,
  useRadioSettings,
  useSearchParams,
  type PageRoute,
  type RemoteContract,
  api,
  type PageDefinition,
} from '@collectif/shared';
import {
  EMBED_HEIGHT_MESSAGE,
  embedHeight,
  embedFrameUrl,
  embedParameters,
  embedTitle,
  type EmbedOptions,
  type EmbedSource,
} from '@collectif/shared/embed';
import { embeddableResidences, readConfigurator, streamOriginOf, type SourceKind } from '../embed/configurator';
import { EmbedCode } from '../embed/EmbedCode';
import { EmbedForm } from '../embed/EmbedForm';
import { loadResidences, useResidences } from '../residences/residences';
import { useSiteOrigin } from '../embed/siteOrigin';
import '../styles/integrer.css';
import { PAGES } from '@collectif/shared/addresses';

interface Picks {
  /** The source the address had when these were set: another one (the back button) resets them. */
  from: string;
  kind: SourceKind;
  residence: string;
  episode: string | null;
}

function picksFor(source: EmbedSource, kind: SourceKind, previous?: Picks): Picks {
  return {
    from: JSON.stringify(source),
    kind,
    residence: source.kind === 'residence' ? source.id : (previous?.residence ?? ''),
    episode: source.kind === 'episode' ? source.slug : (previous?.episode ?? null),
  };
}

/** The tallest a framed player may make its preview. */
const MAX_FRAME_HEIGHT = 800;

/**
 * The player's height as the framed player tells it (`EMBED_HEIGHT_MESSAGE`), as the height
 * listener does on a partner's page; the size's own height until it does.
 */
function useToldHeight(frame: RefObject<HTMLIFrameElement | null>, src: string, initial: number): number {
  const [told, setTold] = useState<{ src: string; height: number } | null>(null);
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== window.location.origin) return;
      const data = event.data as { type?: unknown; height?: unknown } | null;
      if (data?.type !== EMBED_HEIGHT_MESSAGE || typeof data.height !== 'number' || !(data.height > 0)) return;
      setTold({ src, height: Math.min(Math.ceil(data.height), MAX_FRAME_HEIGHT) });
    };
    window.addEventListener('message', listen);
    return () => {
      window.removeEventListener('message', listen);
    };
  }, [frame, src]);
  return told?.src === src ? told.height : initial;
}

function Preview({ options }: { options: EmbedOptions }) {
  // Same origin: the page's own /embed/lecteur. A new frame for each choice, so that trying the
  // choices adds nothing to the browser's history.
  const src = embedFrameUrl('', options);
  const frame = useRef<HTMLIFrameElement>(null);
  const height = useToldHeight(frame, src, embedHeight(options));
  return (
    <section className="integrer__preview" aria-labelledby="integrer-apercu">
      <h2 id="integrer-apercu">Aperçu</h2>
      <div className={`integrer__frame integrer__frame--${options.format}`}>
        <iframe
          key={src}
          ref={frame}
          src={src}
          title={embedTitle(siteConfig.name, options.source)}
          width="100%"
          height={height}
          allow="autoplay"
          // Below the choices on a phone: the framed player (its page, its script, the now-playing
          // request) waits until the visitor comes near it, and leaves the first screen alone.
          loading="lazy"
        />
      </div>
    </section>
  );
}

/** integrer: a partner chooses what the player plays, its look and its size, and copies its code. */
function EmbedPage() {
  const [params, setParams] = useSearchParams();
  const address = params.toString();
  const read = readConfigurator(params);
  // The choice shown at once, and the address after it (the router applies it in a transition: a
  // radio button would show its old state meanwhile). Another address (the back button) wins.
  const [shown, setShown] = useState({ from: address, options: read.options });
  if (shown.from !== address) setShown({ from: address, options: read.options });
  const options = shown.from === address ? shown.options : read.options;
  const origin = useSiteOrigin();
  const streamOrigin = streamOriginOf(useRadioSettings().liveStreamUrl, origin);
  const [picks, setPicks] = useState(() => picksFor(options.source, read.kind));
  if (picks.from !== JSON.stringify(options.source)) setPicks(picksFor(options.source, read.kind, picks));
  // Before one is chosen, the select shows the first residence (once the residences are there).
  const first = embeddableResidences(useResidences().residences)[0]?.id ?? '';
  const residence = picks.residence === '' ? first : picks.residence;

  /** The address says the choice: replaced as the choices change, shareable as it is. */
  const change = (next: Partial<EmbedOptions>) => {
    setShown((previous) => ({ from: previous.from, options: { ...previous.options, ...next } }));
    setParams((previous) => new URLSearchParams(embedParameters({ ...readConfigurator(previous).options, ...next })), {
      replace: true,
      preventScrollReset: true,
    });
  };
  const choose = (source: EmbedSource) => {
    setPicks(picksFor(source, source.kind, picks));
    change({ source });
  };
  const chooseKind = (next: SourceKind) => {
    if (next === 'direct') choose({ kind: 'direct' });
    else if (next === 'residence') choose({ kind: 'residence', id: residence });
    else if (picks.episode !== null) choose({ kind: 'episode', slug: picks.episode });
    // « Un épisode » before any is chosen: the search opens, the code waits for an episode.
    else setPicks({ ...picks, kind: 'episode' });
  };
  const pending = picks.kind !== options.source.kind;

  return (
    <div className="page integrer">
      <h1>Intégrer le lecteur</h1>
      <p className="integrer__intro">
        Une salle, un festival, une résidence : mettez la radio sur votre site. Choisissez ce que joue le lecteur, son
        allure et sa taille, puis copiez le code. Votre site lit les liens (oEmbed) ? Collez-y simplement l’adresse de
        l’accueil, d’une résidence ou d’une émission.
      </p>
      <div className="integrer__layout">
        <EmbedForm
          options={options}
          kind={picks.kind}
          initialQuery={read.q}
          residence={residence}
          episode={picks.episode}
          onKind={chooseKind}
          onSource={choose}
          onChange={change}
        />
        <div className="integrer__result">
          {pending ? (
            <p className="integrer__pending" role="status">
              Cherchez un épisode, puis choisissez-le : son aperçu et son code s’afficheront ici.
            </p>
          ) : (
            <>
              <Preview options={options} />
              <section className="integrer__code" aria-labelledby="integrer-code">
                <h2 id="integrer-code">Le code à copier</h2>
                <EmbedCode options={options} origin={origin} streamOrigin={streamOrigin} />
                {/* The API's reference page, served by the server beside the API (docs/api.md, « The reference page »). */}
                <p className="integrer__api">
                  Vous écrivez votre propre lecteur ? Lisez la <a href="/api/docs">référence de l’API</a> de la radio,
                  décrite en OpenAPI : <a href="/api/openapi.json">/api/openapi.json</a>.
                </p>
              </section>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

export default EmbedPage satisfies RemoteContract['radio']['EmbedPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  // The same arguments as the page's own queries (EmbedPage), so the browser finds them answered.
  load: ({ query, dispatch }) => {
    const { options, q } = readConfigurator(query);
    return [
      loadResidences(dispatch),
      ...(options.source.kind === 'episode' ? [dispatch(api.endpoints.episode.initiate(options.source.slug))] : []),
      ...(q === '' ? [] : [dispatch(api.endpoints.episodes.initiate({ q }))]),
    ];
  },
  // Every choice is the same page: one address for search engines.
  head: ({ href }) => {
    const canonicalPath = href(PAGES.embed);
    return canonicalPath === null ? {} : { canonicalPath };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'integrer',
  title: 'Intégrer le lecteur',
  description:
    'Le lecteur de {site} sur votre site : le direct, une résidence ou un épisode, à vos couleurs, avec le code à copier.',
  area: 'La page « Intégrer le lecteur »',
};
