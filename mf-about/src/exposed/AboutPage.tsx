import { useEffect } from 'react';
import {
  api,
  Link,
  mailto,
  siteConfig,
  useAboutTextsQuery,
  useAppDispatch,
  useAppSelector,
  useEventsQuery,
  useTeamQuery,
  type AboutTexts,
  type AppDispatch,
  type PageRoute,
  type RootState,
  type TeamMember,
  type RemoteContract,
  type PageDefinition,
} from '@collectif/shared';
import { ContentImage } from '../about/ContentImage';
import { Paragraphs } from '../about/Paragraphs';
import { RevealSection } from '../about/RevealSection';
import { StatList } from '../about/StatList';
import { StudioMap } from '../about/StudioMap';
import { TeamStrip } from '../about/TeamStrip';
import Privacy from '../about/Privacy';
import { servedAbout } from '../about/fromHtml';
import '../about/about.css';
import { ABOUT_IMAGE_SIZES, preloadSrcSet } from '@collectif/shared/pictures';
import { organization } from '@collectif/shared/seo';
import { PageLink, PAGES, SupportLink, usePageHref } from '@collectif/shared/addresses';
import { ExternalLink, scrollToTop, StatusMessage } from '@collectif/shared/ui';

const { stats, emails } = siteConfig;

/** Each contact's address, and the site's form for it where there is one (docs/proposals.md, « The pages »). */
const contactsOf = (about: AboutTexts) => [
  { label: about.contact.labels.contact, address: emails.contact },
  { label: about.contact.labels.shows, address: emails.shows },
  {
    label: about.contact.labels.labelDemos,
    address: emails.labelDemos,
    form: { page: PAGES.sendDemo, text: 'Envoyer une démo' },
  },
];

/*
 * The page's texts and its team are the About team's content, read at run time (GET
 * /api/content/about and /api/content/team, docs/content.md): a saved change shows on the next page
 * with no rebuild. The page loads both with its other data, so the server renders them. They come
 * once: the server leaves them out of the page's state (`page.fromHtml`), and the browser reads
 * them back from the page it hydrates (about/fromHtml.ts).
 */
const loadTexts = (dispatch: AppDispatch) => [
  dispatch(api.endpoints.aboutTexts.initiate(undefined)),
  dispatch(api.endpoints.team.initiate(undefined)),
];
const selectAnswer = api.endpoints.aboutTexts.select(undefined);

/**
 * Whether the page is hydrating what the server sent: the store has never asked for its texts (a
 * navigation's loader and every later visit ask first) and the page it started on shows them.
 */
const fromServer = (state: RootState): boolean => selectAnswer(state).isUninitialized && servedAbout() !== null;

/** The texts: the store's, or those of the page the server sent while it is hydrated. */
const selectTexts = (state: RootState) =>
  selectAnswer(state).data ?? (fromServer(state) ? servedAbout()?.texts : undefined);

// The title ('<name> À Propos') and meta description ('Qui sommes-nous ?') are set by the shell's route.
/**
 * « cette année »: the events of the collective's calendar this year when one is configured
 * (EVENTS_ICS_URLS, docs/events.md), else the figure of the site's settings.
 */
/** The events' answer with no event in it: the page shows only the year's figure. */
const YEAR_ONLY = { coming: 0, past: 0 };

function useEventsThisYear(): number | string {
  const { data } = useEventsQuery(YEAR_ONLY);
  return data?.source === 'calendar' ? data.thisYear : stats.events.thisYear;
}

function AboutPage() {
  const dispatch = useAppDispatch();
  // Hydrating the server's page: its texts and team are the ones its HTML shows, asked for nowhere.
  const served = useAppSelector(fromServer) ? servedAbout() : null;
  const texts = useAboutTextsQuery(undefined, { skip: served !== null });
  // A team that failed on the server is asked for again.
  const team = useTeamQuery(undefined, { skip: served !== null && served.team.length > 0 });
  useEffect(() => {
    scrollToTop();
  }, []);
  useEffect(() => {
    if (served === null) return;
    // Into the store once hydrated, for the page's head and the next visit: nothing is fetched.
    void dispatch(api.util.upsertQueryData('aboutTexts', undefined, served.texts));
    if (served.team.length > 0) void dispatch(api.util.upsertQueryData('team', undefined, served.team));
  }, [dispatch, served]);
  const about = texts.data ?? served?.texts;
  const members = team.data ?? served?.team;
  // Shown whole, once the team has come too (or failed: the strip is then empty).
  if (about !== undefined && (served !== null || !team.isLoading))
    return <AboutView about={about} team={members ?? []} />;
  return (
    <div className="page about-page">
      <h1>À propos</h1>
      {texts.isError ? (
        <StatusMessage
          kind="error"
          onRetry={() => {
            void texts.refetch();
          }}
        >
          La présentation du collectif ne peut pas être affichée pour le moment. Réessayez dans un instant.
        </StatusMessage>
      ) : (
        <StatusMessage kind="loading">Chargement de la présentation du collectif ...</StatusMessage>
      )}
    </div>
  );
}

function AboutView({ about, team }: { about: AboutTexts; team: readonly TeamMember[] }) {
  const eventsThisYear = useEventsThisYear();
  const contacts = contactsOf(about);
  const pageHref = usePageHref();
  return (
    <div className="page about-page">
      <header className="about-intro">
        <p className="about-intro__name">{siteConfig.name}</p>
        <h1>{about.heading}</h1>
        <p className="about-intro__statement">{about.intro.statement}</p>
        <ContentImage image={about.intro.image} eager />
      </header>

      <RevealSection id="collectif" heading={about.collective.heading}>
        <Paragraphs paragraphs={about.collective.paragraphs} />
      </RevealSection>

      <RevealSection id="valeurs" heading={about.values.heading}>
        <ul className="about-values">
          {about.values.items.map((value) => (
            <li key={value.title}>
              <h3>{value.title}</h3>
              <p>{value.text}</p>
            </li>
          ))}
        </ul>
      </RevealSection>

      <RevealSection id="nom" heading={about.etymology.heading}>
        <Paragraphs paragraphs={about.etymology.paragraphs} />
      </RevealSection>

      <RevealSection id="reperes" heading={about.indicators.heading} className="about-indicators">
        <dl className="indicators">
          <div>
            <dt>{about.indicators.createdLabel}</dt>
            <dd>{stats.created}</dd>
          </div>
          <div>
            <dt>{about.indicators.locationLabel}</dt>
            <dd>{stats.city}</dd>
          </div>
        </dl>
      </RevealSection>

      <RevealSection id="webradio" heading={about.webradio.heading} className="about-split">
        <div>
          <Paragraphs paragraphs={about.webradio.paragraphs} />
          <StatList
            label={about.webradio.statsLabel}
            stats={[
              { value: stats.radio.residencies, label: about.webradio.stats.residencies },
              { value: stats.radio.streams, label: about.webradio.stats.streams },
              { value: stats.radio.liveSessions, label: about.webradio.stats.liveSessions },
            ]}
          />
          <ExternalLink className="button button--ghost" href={siteConfig.links.soundcloud}>
            {about.webradio.replayLink}
          </ExternalLink>
        </div>
        <ContentImage image={about.webradio.image} />
      </RevealSection>

      <RevealSection id="label" heading={about.label.heading} className="about-split">
        <div>
          <Paragraphs paragraphs={about.label.paragraphs} />
          <ul className="about-tags" aria-label={about.label.stylesLabel}>
            {about.label.styles.map((style) => (
              <li key={style}>{style}</li>
            ))}
          </ul>
          <StatList
            label={about.label.statsLabel}
            stats={[
              { value: stats.label.releases, label: about.label.stats.releases },
              { value: stats.label.artists, label: about.label.stats.artists },
            ]}
          />
        </div>
        <ContentImage image={about.label.image} />
      </RevealSection>

      <RevealSection id="evenements" heading={about.events.heading} className="about-split">
        <div>
          <Paragraphs paragraphs={about.events.paragraphs} />
          <StatList
            label={about.events.statsLabel}
            stats={[
              { value: stats.events.productions, label: about.events.stats.productions },
              { value: eventsThisYear, label: about.events.stats.thisYear },
            ]}
          />
          <PageLink className="button button--ghost" page={PAGES.events}>
            {about.events.link}
          </PageLink>
        </div>
        <ContentImage image={about.events.image} />
      </RevealSection>

      <RevealSection id="autofinancement" heading={about.funding.heading}>
        <Paragraphs paragraphs={about.funding.paragraphs} />
        <ul className="about-list" aria-label={about.funding.sourcesLabel}>
          {about.funding.sources.map((source) => (
            <li key={source}>{source}</li>
          ))}
        </ul>
      </RevealSection>

      <RevealSection id="studio" heading={about.studio.heading}>
        <Paragraphs paragraphs={about.studio.paragraphs} />
        <StudioMap
          address={siteConfig.studio.address}
          title={about.studio.mapTitle}
          provider={about.studio.mapProvider}
          showLabel={about.studio.showMap}
          openLabel={about.studio.openMap}
        />
      </RevealSection>

      <RevealSection id="equipe" heading={about.team.heading}>
        <p>{about.team.intro}</p>
        <TeamStrip
          members={team}
          label={about.team.stripLabel}
          previousLabel={about.team.previous}
          nextLabel={about.team.next}
        />
      </RevealSection>

      <RevealSection id="contact" heading={about.contact.heading}>
        <p>{about.contact.intro}</p>
        <dl className="about-contacts">
          {contacts.map(({ label, address, form }) => {
            const formHref = form === undefined ? null : pageHref(form.page);
            const formText = form?.text ?? '';
            return (
              <div key={label}>
                <dt>{label}</dt>
                <dd>
                  <a href={mailto(address)} aria-label={`${label} : ${address}`}>
                    {address}
                  </a>
                </dd>
                {formHref === null ? null : (
                  <dd>
                    ou par le formulaire <Link to={formHref}>{formText}</Link>
                  </dd>
                )}
              </div>
            );
          })}
        </dl>
      </RevealSection>

      <RevealSection id="soutien" heading={about.support.heading} className="about-support">
        <Paragraphs paragraphs={about.support.paragraphs} />
        {/* The site's page while HelloAsso takes payments on it, else the external one (docs/support.md). */}
        <SupportLink className="button">{about.support.button}</SupportLink>
      </RevealSection>

      <RevealSection id="credits" heading={about.credits.heading}>
        <dl className="about-credits">
          {about.credits.items.map((credit) => (
            <div key={credit.role}>
              <dt>{credit.role}</dt>
              <dd>{credit.name}</dd>
            </div>
          ))}
        </dl>
      </RevealSection>

      {/* What the site counts, and « Ne pas être compté » (docs/figures.md, « In the browser »). */}
      <Privacy />
    </div>
  );
}

export default AboutPage satisfies RemoteContract['about']['AboutPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  // The events, for the figure of « cette année » (useEventsThisYear).
  load: ({ dispatch }) => [...loadTexts(dispatch), dispatch(api.endpoints.events.initiate(YEAR_ONLY))],
  // In the HTML, every field of both (about/fromHtml.ts): not again in the page's state.
  fromHtml: ['aboutTexts', 'team'],
  // The page's largest paint: the intro image (src/about/ContentImage.tsx).
  preloads: ({ state }) => {
    const image = selectTexts(state)?.intro.image;
    return image === undefined
      ? []
      : [{ href: image.src, ...preloadSrcSet(image.src, ABOUT_IMAGE_SIZES), fetchpriority: 'high' }];
  },
  head: ({ origin, href, state }) => {
    const image = selectTexts(state)?.intro.image;
    return {
      ...(image === undefined ? {} : { image: { url: new URL(image.src, origin).href, alt: image.alt } }),
      jsonLd: [
        organization({
          name: siteConfig.name,
          url: new URL(href(PAGES.home) ?? '/', origin).href,
          logo: new URL('/assets/images/logo.svg', origin).href,
          email: siteConfig.emails.contact,
          sameAs: [siteConfig.links.instagram, siteConfig.links.soundcloud, siteConfig.links.bandcamp],
          address: siteConfig.studio.address,
          foundingDate: String(siteConfig.stats.created),
        }),
      ],
    };
  },
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'a-propos',
  title: '{site} À Propos',
  description: 'Qui sommes-nous ?',
  area: 'La page À propos',
  menu: 'À propos',
};
