import { ExternalLink } from '@collectif/shared';

/** The embeddable map of an address (no API key needed). */
export function mapEmbedUrl(address: string): string {
  return `https://www.google.com/maps?q=${encodeURIComponent(address)}&output=embed`;
}

/** The same place in the full map site, for when the frame cannot load (blocked, offline, no cookies). */
export function mapPageUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

export function StudioMap({ address, title, openLabel }: { address: string; title: string; openLabel: string }) {
  return (
    <div className="studio-map">
      <address className="studio-map__address">{address}</address>
      <div className="studio-map__frame">
        <iframe title={`${title} : ${address}`} src={mapEmbedUrl(address)} width={800} height={450} loading="lazy" />
      </div>
      <ExternalLink className="button button--ghost" href={mapPageUrl(address)}>
        {openLabel}
      </ExternalLink>
    </div>
  );
}
