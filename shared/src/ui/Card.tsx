import { useState, type ReactNode } from 'react';
// The page's one router (a helper takes it from the singleton: docs/parts.md, « Singletons and helpers »).
import { Link } from '@collectif/shared';
import { FRENCH_MONTHS_SHORT, wallAt } from '../schedule';

/** The card's picture. Square unless told otherwise; a missing or broken one shows `fallback`. */
export interface CardImage {
  src: string;
  width: number;
  height: number;
  srcSet?: string;
  sizes?: string;
  /**
   * The first row of a grid loads at once; the rest wait until the visitor scrolls near them. Either
   * way after the page's largest paint, the first card's, marked `priority`: every other card asks
   * for its picture with `fetchpriority="low"`, which Chromium would otherwise raise to high for a
   * picture in view, sharing a phone's slow network with that image (docs/head.md).
   */
  eager?: boolean;
  /**
   * The page's largest paint (a grid's first card): fetched first (`fetchpriority="high"`), at
   * once, as the page's definition announces it in the head (docs/head.md, « The first image »).
   */
  priority?: boolean;
  /** Shown instead when `src` is empty or fails to load (e.g. the default podcast cover). */
  fallback?: string;
}

interface CardCommon {
  image: CardImage;
  title: string;
  description?: string | null;
  /** An ISO date, shown in French, Paris time (the same on the server and in every browser). */
  date?: string | null;
  /** 2 when the cards are the page's main list (under its h1), 3 under a block's h2. */
  headingLevel?: 2 | 3;
  /** A short line under the date, e.g. « Reprendre à 23:14 ». */
  note?: string | null;
}

/**
 * What a card does when chosen, one of three: open an outside address in a new tab (`url`), go to a
 * page of the site (`to`), or emit its click event (`onClick`, with `actionLabel` said first to
 * screen readers, e.g. « Écouter : »).
 */
export type CardProps = CardCommon &
  (
    | { url: string; to?: never; onClick?: never; actionLabel?: never }
    | { to: string; url?: never; onClick?: never; actionLabel?: never }
    | {
        onClick: () => void;
        actionLabel?: string;
        /** A page of the site the title leads to, while a click anywhere else still does `onClick`. */
        titleTo?: string;
        url?: never;
        to?: never;
      }
  );

/**
 * « 4 nov. 2026 » (Paris's day), or null for a missing or unreadable date. Written from Paris's
 * wall clock and the French names (`wallAt`, schedule.ts), without `Intl` in the years Paris's rule
 * is written for: a page's first `Intl` object starts ICU, tens of milliseconds of a phone's main
 * thread in one piece (docs/first-screen.md, « Work after the paint »).
 */
export function cardDate(iso: string | null | undefined): string | null {
  if (iso === null || iso === undefined) return null;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  const { year, month, day } = wallAt(time);
  return `${String(day)} ${FRENCH_MONTHS_SHORT[month - 1] ?? ''} ${String(year)}`;
}

function CardPicture({ image }: { image: CardImage }) {
  const [failed, setFailed] = useState(false);
  const usable = image.src.trim() !== '' && !failed;
  const src = usable ? image.src : (image.fallback ?? image.src);
  return (
    <img
      className="card__image"
      src={src}
      srcSet={usable ? image.srcSet : undefined}
      sizes={usable ? image.sizes : undefined}
      alt=""
      width={image.width}
      height={image.height}
      loading={image.eager === true || image.priority === true ? 'eager' : 'lazy'}
      fetchPriority={image.priority === true ? 'high' : 'low'}
      decoding="async"
      onError={
        image.fallback === undefined
          ? undefined
          : () => {
              setFailed(true);
            }
      }
    />
  );
}

/**
 * The one card of the site (image, title, description, date, and what a click does), used by every
 * part: podcasts, releases and residences look and behave alike. The whole card is one control; its
 * texts are clamped so that the cards of a row have the same height (see docs/interface.md).
 */
export function Card(props: CardProps) {
  const { image, title, description, date, note, headingLevel = 3 } = props;
  const shownDate = cardDate(date);
  const titleTo = props.onClick === undefined ? undefined : props.titleTo;
  const split = titleTo !== undefined;
  let heading: ReactNode;
  if (titleTo !== undefined) {
    heading = (
      <Heading level={headingLevel}>
        <Link className="card__title-link" to={titleTo}>
          {title}
        </Link>
      </Heading>
    );
  } else if (props.onClick === undefined) {
    heading = <Heading level={headingLevel}>{title}</Heading>;
  } else {
    // A heading is not allowed inside a button: there the title is plain text.
    heading = <span className="card__title">{title}</span>;
  }
  const body = (
    <>
      <CardPicture key={image.src} image={image} />
      <span className="card__text">
        {props.onClick !== undefined && props.actionLabel !== undefined && !split ? (
          <span className="visually-hidden">{props.actionLabel}</span>
        ) : null}
        {heading}
        {description ? <span className="card__description">{description}</span> : null}
        {shownDate === null || !date ? null : (
          <time className="card__date" dateTime={date}>
            {shownDate}
          </time>
        )}
        {note ? <span className="card__note">{note}</span> : null}
      </span>
    </>
  );
  if (split) {
    // The play button covers the card; the title's link sits above it (docs/interface.md, « Cards »).
    return (
      <div className="card card--split">
        {body}
        <button
          type="button"
          className="card__play"
          onClick={props.onClick}
          aria-label={`${props.actionLabel ?? ''}${title}${note ? ` (${note})` : ''}`}
        />
      </div>
    );
  }
  if (props.url !== undefined) {
    return (
      <a className="card" href={props.url} target="_blank" rel="noopener noreferrer">
        {body}
        <span className="visually-hidden"> (nouvel onglet)</span>
      </a>
    );
  }
  if (props.to !== undefined) {
    return (
      <Link className="card" to={props.to}>
        {body}
      </Link>
    );
  }
  return (
    <button type="button" className="card" onClick={props.onClick}>
      {body}
    </button>
  );
}

function Heading({ level, children }: { level: 2 | 3; children: ReactNode }) {
  return level === 2 ? <h2 className="card__title">{children}</h2> : <h3 className="card__title">{children}</h3>;
}
