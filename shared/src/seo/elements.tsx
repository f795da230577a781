import { createElement, type ReactElement } from 'react';
import { headElements, jsonLdElements, type HeadElement, type PageHead } from './head';

/**
 * A page's head, rendered by React from its description (docs/head.md, « One head »): the server's
 * Document writes these elements into the page's `<head>`; in the browser the page's head component
 * renders the same ones, and React 19 keeps them in the document's head (it takes over the
 * elements the server wrote when they are the same, and replaces them after a navigation).
 */

/** HTML attributes whose React name differs (React writes the attribute from it). */
const REACT_NAMES: Readonly<Record<string, string>> = {
  crossorigin: 'crossOrigin',
  fetchpriority: 'fetchPriority',
  imagesizes: 'imageSizes',
  imagesrcset: 'imageSrcSet',
};

/** One element of a head as React's. */
export function headElement({ tag, attributes, text, html }: HeadElement, key: string | number): ReactElement {
  const props: Record<string, unknown> = {
    key,
    ...Object.fromEntries(attributes.map(([name, value]) => [REACT_NAMES[name] ?? name, value])),
  };
  if (html !== undefined) props.dangerouslySetInnerHTML = { __html: html };
  return createElement(tag, props, html === undefined ? text : undefined);
}

/** Title, description, canonical, alternates, Open Graph and Twitter card (`headElements`). */
export function HeadTags({ head, siteName }: { head: PageHead; siteName: string }) {
  return <>{headElements(head, siteName).map(headElement)}</>;
}

/** The page's JSON-LD (`jsonLdElements`), where the page is. */
export function JsonLd({ head }: { head: Pick<PageHead, 'jsonLd'> }) {
  return <>{jsonLdElements(head).map(headElement)}</>;
}
