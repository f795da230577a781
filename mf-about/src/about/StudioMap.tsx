import { EmbedFacade } from '@collectif/shared/ui';

/** The embeddable map of an address (no API key needed). */
export function mapEmbedUrl(address: string): string {
  return `https://www.google.com/maps?q=${encodeURIComponent(address)}&output=embed`;
}

/** The same place in the full map site, for when the frame cannot load (blocked, offline, no cookies). */
export function mapPageUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

interface StudioMapProps {
  address: string;
  title: string;
  provider: string;
  showLabel: string;
  openLabel: string;
}

/** The studio's address, and its map once the visitor asks for it (docs/interface.md, "Third-party embeds"). */
export function StudioMap({ address, title, provider, showLabel, openLabel }: StudioMapProps) {
  return (
    <div className="studio-map">
      <address className="studio-map__address">{address}</address>
      <EmbedFacade
        className="studio-map__embed"
        name={title}
        provider={provider}
        showLabel={showLabel}
        directUrl={mapPageUrl(address)}
        directLabel={openLabel}
      >
        <iframe title={`${title} : ${address}`} src={mapEmbedUrl(address)} width={800} height={450} />
      </EmbedFacade>
    </div>
  );
}
