// The shared singleton (docs/parts.md, « Singletons and helpers »): one copy on a page, the shell's,
// which every remote runs against whatever version it was built with. It holds what a page must have
// once: the store and the API slice, the event bus, the React contexts, the radio settings, the
// router and the Redux libraries. Versioned by the contract (shared/package.json `version`,
// docs/contract.md): an export added here is a minor version, the shell deployed first; one removed,
// a major. A helper (no state of its own) goes to a path of its own instead (shared/build/contract.mjs);
// the ones it kept for the parts built before 2.5.0 left it at 3.0.0 (docs/contract.md, « 3.0.0 »).
export * from './types';
export * from './http';
export * from './remotes';
export * from './events/contract';
export { emit, on, lastPayload, resetEvents } from './events/bus';
export { siteConfig, releaseUrl, twitchChannelUrl, mailto, type SiteConfig } from './config';
export {
  RADIO_SETTINGS_ID,
  RADIO_SETTINGS_PATH,
  loadRadioSettings,
  radioSettings,
  radioSettingsReady,
  resetRadioSettings,
  type RadioSettings,
  type Rendition,
  type Timeshift,
} from './config';
export * from './store/api';
export { feedSlice, selectFeedLoaded } from './store/feed';
export {
  rootReducer,
  makeStore,
  listenerMiddleware,
  startAppListening,
  type RootState,
  type AppStore,
  type AppDispatch,
  type StoreExtra,
} from './store/store';
export { useAppDispatch, useAppSelector, useAppStore } from './store/hooks';
export { readWith, replaySelection, legacyReplayNames, nowPlayingAnswer } from './schemas/answers';
export type { AboutTexts, Slide, TeamMember } from './schemas/answers';
// Since 3.3.0: the audience figures (docs/figures.md): the player's beacons, the editor's panel.
export {
  FEW,
  FIGURES_LIVE_BEACON_S,
  FIGURES_MILESTONES,
  FIGURES_THRESHOLD,
  audienceFiguresAnswer,
} from './schemas/answers';
export type { AudienceFigures, Beacon, FigureValue } from './schemas/answers';
export * from './pages';
export {
  fullHead,
  type PageContext,
  type PageDefinition,
  type PageHeadParts,
  type PagePreload,
} from './pageDefinition';
export { ROUTER_STATE_ID, SSR_STATE_ID, ssrHydrated, type SsrState, type ServerModules } from './ssr';
export {
  SiteEnvironmentContext,
  useSiteEnvironment,
  useRadioSettings,
  usePages,
  type SiteEnvironment,
} from './environment';
export * from './libraries';
