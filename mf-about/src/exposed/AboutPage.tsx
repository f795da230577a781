import { useEffect } from 'react';
import {
  api,
  mailto,
  siteConfig,
  useEventsQuery,
  type PageRoute,
  type RemoteContract,
  type PageDefinition,
} from '@collectif/shared';
import about from '../../content/about.json';
import team from '../../content/team.json';
import { ContentImage } from '../about/ContentImage';
import { Paragraphs } from '../about/Paragraphs';
import { RevealSection } from '../about/RevealSection';
import { StatList } from '../about/StatList';
import { StudioMap } from '../about/StudioMap';
import { TeamStrip } from '../about/TeamStrip';
import '../about/about.css';
import { ABOUT_IMAGE_SIZES, preloadSrcSet } from '@collectif/shared/pictures';
import { organization } from '@collectif/shared/seo';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { ExternalLink, scrollToTop } from '@collectif/shared/ui';

const { stats, emails } = siteConfig;

const contacts = [
  { label: about.contact.labels.contact, address: emails.contact },
  { label: about.contact.labels.shows, address: emails.shows },
  { label: about.contact.labels.labelDemos, address: emails.labelDemos },
];

// The title ('<name> À Propos') and meta description ('Qui sommes-nous ?') are set by the shell's route.
/**
 * « cette année »: the events of the collective's calendar this year when one is configured
 * (EVENTS_ICS_URLS, docs/events.md), else the figure of the site's settings.
 */
function useEventsThisYear(): number | string {
  const { data } = useEventsQuery({});
  return data?.source === 'calendar' ? data.thisYear : stats.events.thisYear;
}

function AboutPage() {
  const eventsThisYear = useEventsThisYear();
  useEffect(() => {
    scrollToTop();
  }, []);

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
          {contacts.map(({ label, address }) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <a href={mailto(address)} aria-label={`${label} : ${address}`}>
                  {address}
                </a>
              </dd>
            </div>
          ))}
        </dl>
      </RevealSection>

      <RevealSection id="soutien" heading={about.support.heading} className="about-support">
        <Paragraphs paragraphs={about.support.paragraphs} />
        <ExternalLink className="button" href={siteConfig.links.donation}>
          {about.support.button}
        </ExternalLink>
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
    </div>
  );
}

export default AboutPage satisfies RemoteContract['about']['AboutPage'];

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  // The events, for the figure of « cette année » (useEventsThisYear).
  load: ({ dispatch }) => [dispatch(api.endpoints.events.initiate({}))],
  // The page's largest paint: the intro image (src/about/ContentImage.tsx).
  preloads: () => [
    { href: about.intro.image.src, ...preloadSrcSet(about.intro.image.src, ABOUT_IMAGE_SIZES), fetchpriority: 'high' },
  ],
  head: ({ origin, href }) => ({
    image: { url: new URL(about.intro.image.src, origin).href, alt: about.intro.image.alt },
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
  }),
};

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = {
  path: 'a-propos',
  title: '{site} À Propos',
  description: 'Qui sommes-nous ?',
  area: 'La page À propos',
  menu: 'À propos',
};
