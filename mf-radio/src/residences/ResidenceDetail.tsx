import { type Residence } from '@collectif/shared';
import { PAGE_IMAGE_SIZES, RESIDENCE_PICTURES, residencePictures } from '@collectif/shared/pictures';
import { visibleStyles } from './residences';
import { ResidencePodcasts } from './ResidencePodcasts';
import { NextShow } from '../schedule/NextShow';
import { ResidenceEvents } from '../events/ResidenceEvents';
import { Subscribe } from './Subscribe';
import { FollowButton } from '../follow/FollowButton';
import { configuratorSearchFor } from '../embed/configurator';
import { PageLink, PAGES } from '@collectif/shared/addresses';
import { ExternalLink } from '@collectif/shared/ui';

const SOCIAL_LINKS = [
  ['instagram', 'Instagram'],
  ['soundcloud', 'SoundCloud'],
  ['bandcamp', 'Bandcamp'],
  ['website', 'Site web'],
] as const satisfies readonly (readonly [keyof Residence, string])[];

function SocialLinks({ residence }: { residence: Residence }) {
  const present = SOCIAL_LINKS.flatMap(([key, label]) => {
    const href = residence[key];
    return href === undefined || href === '' ? [] : [{ key, label, href }];
  });
  if (present.length === 0) return null;
  return (
    <ul className="residence__links" aria-label="Liens">
      {present.map(({ key, label, href }) => (
        <li key={key}>
          <ExternalLink className="button button--ghost" href={href}>
            {label}
          </ExternalLink>
        </li>
      ))}
    </ul>
  );
}

/** « Intégrer le lecteur » preset on the residence (docs/embed.md); none for an id a player cannot read. */
function EmbedLink({ id }: { id: string }) {
  const search = configuratorSearchFor({ kind: 'residence', id });
  if (search === null) return null;
  return (
    <section className="residence__subscribe residence__embed" aria-labelledby="sur-votre-site">
      <h2 id="sur-votre-site">Sur votre site</h2>
      <p>Le lecteur de cette résidence sur le site de votre salle ou de votre festival, à vos couleurs.</p>
      <p className="residence__subscribe-actions">
        <PageLink className="button button--ghost" page={PAGES.embed} search={search}>
          Intégrer le lecteur
        </PageLink>
      </p>
    </section>
  );
}

/** A resident show: header, description, styles, links and latest shows (docs/site.md, « Residents »). */
export function ResidenceDetail({ residence }: { residence: Residence }) {
  const styles = visibleStyles(residence.styles);
  const pictures = residencePictures(residence);
  return (
    <article className="residence">
      <header className="residence__header">
        <img
          className="residence__header-image"
          src={pictures.header}
          srcSet={pictures.headerSrcSet}
          sizes={PAGE_IMAGE_SIZES}
          alt=""
          width={RESIDENCE_PICTURES.header.width}
          height={RESIDENCE_PICTURES.header.height}
          fetchPriority="high"
        />
        <div className="residence__overlay">
          <h1 className="residence__artist">{residence.artist}</h1>
          <p className="residence__show">{residence.show}</p>
          <FollowButton id={residence.id} artist={residence.artist} />
        </div>
      </header>
      <NextShow residence={residence.id} />
      <div
        className="residence__description"
        // Safe HTML: sanitised by the server that serves the residences (docs/rendering.md, « Safe HTML »).
        dangerouslySetInnerHTML={{ __html: residence.description }}
      />
      {styles.length === 0 ? null : (
        <ul className="residence__styles" aria-label="Styles">
          {styles.map((style) => (
            <li key={style} className="tag">
              {style}
            </li>
          ))}
        </ul>
      )}
      <ResidenceEvents residence={residence.id} artist={residence.artist} />
      <SocialLinks residence={residence} />
      <Subscribe id={residence.id} />
      <EmbedLink id={residence.id} />
      <ResidencePodcasts artist={residence.artist} residence={residence.id} />
    </article>
  );
}
