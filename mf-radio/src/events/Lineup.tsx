import { Fragment } from 'react';
import type { EventArtist } from '@collectif/shared';
import { PageLink, PAGES } from '@collectif/shared/addresses';

/**
 * « Axonberg, Kalibre et DJ Invitée »: each residence a link to its page, the others as written;
 * on a residence's own page (`current`), its name is not a link to the page the visitor is on.
 */
export function Lineup({ lineup, current }: { lineup: readonly EventArtist[]; current?: string | undefined }) {
  return (
    <>
      {lineup.map((artist, index) => (
        <Fragment key={`${artist.name}|${String(index)}`}>
          {index === 0 ? '' : index === lineup.length - 1 ? ' et ' : ', '}
          {artist.residence === null || artist.residence === current ? (
            artist.name
          ) : (
            <PageLink page={PAGES.residence} params={{ id: artist.residence }}>
              {artist.name}
            </PageLink>
          )}
        </Fragment>
      ))}
    </>
  );
}
