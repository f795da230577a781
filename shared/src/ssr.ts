import type { ComponentType } from 'react';
import { createAction } from '@reduxjs/toolkit';

/**
 * Server rendering, the parts both sides agree on (docs/rendering.md): the id of the state the
 * server writes into a page, the action that brings it into the browser's store, and the window
 * that browser-only libraries get on the server.
 */

/** `<script type="application/json" id="ssr-state">`: the store as the server left it. */
export const SSR_STATE_ID = 'ssr-state';

/**
 * `<script type="application/json" id="router-state">`: the router's data as the server's loaders
 * left it (React Router's hydration data), so the browser's router runs no loader again.
 */
export const ROUTER_STATE_ID = 'router-state';

/** What the server hands over: the API's answers and whether the feed had arrived. */
export interface SsrState {
  api?: unknown;
  feed?: { loaded: boolean };
}

/**
 * Dispatched once by the shell before it hydrates: RTK Query takes its answers from it
 * (`extractRehydrationInfo`), so the browser does not fetch again what the page already shows.
 */
export const ssrHydrated = createAction<SsrState>('ssr/hydrated');

/** The modules of one part as its server container exports them. */
export type ServerModules = Readonly<Record<string, ComponentType>>;
