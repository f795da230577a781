// What the embed's tests share: a host element on the page, queries inside its shadow root, and
// the page left as it was found.
import { within } from '@testing-library/react';
import { resetRadioSettings } from '@collectif/shared';
import { configurePlayer } from '../player/config';
import { removeEventSource, type LoopbackServer } from '../testing/browser';

/** An element of the page to put a player in. */
export function host(): HTMLElement {
  const element = document.createElement('div');
  document.body.append(element);
  return element;
}

/** Testing Library queries inside the player's shadow root. */
export function inShadow(element: Element) {
  const root = element.shadowRoot;
  if (root === null) throw new Error('pas de shadow root');
  return within(root as unknown as HTMLElement);
}

/** After a test: an empty page, the player's defaults, no request counted, no stub left. */
export function cleanPage(server: LoopbackServer): void {
  document.body.replaceChildren();
  configurePlayer({ apiBase: '/api' });
  resetRadioSettings();
  server.requests.length = 0;
  removeEventSource();
  jest.restoreAllMocks();
}
