import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { headElement, type HeadElement } from '../seo';

/** Head elements as React writes them (seo/elements.tsx), for tests that read their HTML. */
export function headHtml(elements: readonly HeadElement[]): string {
  return renderToStaticMarkup(createElement(Fragment, null, elements.map(headElement)));
}
