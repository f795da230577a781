import { Fragment, type ReactNode } from 'react';
import { webAddress } from './format';

/**
 * An event's text as its calendar gives it (docs/events.md, « Its text »): plain text, never HTML,
 * so whatever it holds is shown as written; paragraphs at blank lines, line breaks kept, and its
 * http(s) addresses made links (a new tab, `nofollow`: the text is the volunteers', not the site's).
 */

const ADDRESS = /\bhttps?:\/\/[^\s<>"]+/g;
/** Punctuation that ends a sentence rather than the address before it. */
const TRAILING = /[.,;:!?)\]»]+$/;

function linked(line: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const found of line.matchAll(ADDRESS)) {
    const raw = found[0];
    const text = raw.replace(TRAILING, '');
    const href = webAddress(text);
    const at = found.index;
    if (href === null) continue;
    parts.push(line.slice(last, at));
    parts.push(
      <a key={at} href={href} target="_blank" rel="noopener noreferrer nofollow">
        {text}
      </a>,
    );
    last = at + text.length;
  }
  parts.push(line.slice(last));
  return parts;
}

export function EventText({ text }: { text: string }) {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  if (paragraphs.length === 0) return null;
  return (
    <div className="event__text">
      {paragraphs.map((paragraph, index) => (
        <p key={index}>
          {paragraph.split('\n').map((line, number) => (
            <Fragment key={number}>
              {number > 0 ? <br /> : null}
              {linked(line)}
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  );
}
