import { Link, mailto, siteConfig } from '@collectif/shared';
import { BandcampIcon, InstagramIcon, LinkListIcon, Logo, SoundCloudIcon } from './icons';
import { PAGES, SupportLink, usePageHref } from '@collectif/shared/addresses';

const socials = [
  { href: siteConfig.links.instagram, label: 'Instagram', Icon: InstagramIcon },
  { href: siteConfig.links.soundcloud, label: 'SoundCloud', Icon: SoundCloudIcon },
  { href: siteConfig.links.bandcamp, label: 'Bandcamp', Icon: BandcampIcon },
  { href: siteConfig.links.linkList, label: 'Tous nos liens', Icon: LinkListIcon },
] as const;

export function Footer({ year = new Date().getFullYear() }: { year?: number }) {
  // The radio's page (docs/proposals.md, « The pages »); the shows' address while it has none.
  const propose = usePageHref()(PAGES.proposeShow);
  return (
    <footer className="footer">
      <div className="footer__brand">
        <Logo title={siteConfig.name} />
        {/* Each identifier stays on one line; the line may break only between them. */}
        <p className="footer__legal">
          <span className="nowrap">Association loi 1901</span> ·{' '}
          <span className="nowrap">{`RNA ${siteConfig.legal.rna}`}</span> ·{' '}
          <span className="nowrap">{`SIRET ${siteConfig.legal.siret}`}</span>
        </p>
        <p className="footer__copyright">{`© ${String(year)} ${siteConfig.name}`}</p>
      </div>
      <div className="footer__actions">
        <a className="button button--ghost" href={mailto(siteConfig.emails.contact)}>
          Nous contacter
        </a>
        {propose === null ? (
          <a className="button button--ghost" href={mailto(siteConfig.emails.shows)}>
            Proposer une émission
          </a>
        ) : (
          <Link className="button button--ghost" to={propose}>
            Proposer une émission
          </Link>
        )}
        {/* The site's page while HelloAsso takes payments on it, else the external one (docs/support.md). */}
        <SupportLink className="button">Nous soutenir</SupportLink>
      </div>
      <ul className="footer__socials">
        {socials.map(({ href, label, Icon }) => (
          <li key={label}>
            <a href={href} target="_blank" rel="noopener noreferrer" aria-label={`${label} (nouvel onglet)`}>
              <Icon />
            </a>
          </li>
        ))}
      </ul>
    </footer>
  );
}
