// The shared singleton (docs/parts.md, « Singletons and helpers »): one copy on a page, the shell's,
// which every remote runs against whatever version it was built with. It holds what a page must have
// once: the store and the API slice, the event bus, the React contexts, the radio settings, the
// router and the Redux libraries. Versioned by the contract (shared/package.json `version`,
// docs/contract.md): an export added here is a minor version, the shell deployed first; one removed,
// a major. A helper (no state of its own) goes to a path of its own instead (shared/build/contract.mjs).
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
// Deprecated, kept until 3.0.0 for parts built before « One head » (docs/contract.md, « Deprecated »).
// eslint-disable-next-line @typescript-eslint/no-deprecated
export { usePageMeta } from './ui/usePageMeta';
export { readWith, replaySelection, legacyReplayNames, nowPlayingAnswer } from './schemas/answers';
export type { AboutTexts, Slide, TeamMember } from './schemas/answers';
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
// Deprecated, kept until 3.0.0 for parts built before « Safe HTML » (docs/contract.md, « Deprecated »).
// eslint-disable-next-line @typescript-eslint/no-deprecated
export { useDocumentWindow } from './environment';
export * from './libraries';

// Helpers the singleton carried up to 2.4.0, kept until 3.0.0 for the parts built before 2.5.0, which
// run against the shell's copy (docs/contract.md, « 2.5.0 »). A part imports them from their own
// paths (shared/build/contract.mjs, MOVED_TO_HELPERS; lint names the path).
export * from './time';
export * from './schedule';
export * from './resume';
export { parseStartTime, startTimeParam, isSlug } from './episodeAddress';
export * from './tokens';
export { RESIDENCE_PICTURES, residenceImages, residencePictureUrls } from './residenceImages.mjs';
export {
  Card,
  cardDate,
  EmbedFacade,
  ExternalLink,
  StatusMessage,
  answerStatus,
  prefersReducedMotion,
  scrollToTop,
  useReducedMotion,
  useReveal,
  type AnswerStatus,
  type CardImage,
  type CardProps,
} from './ui';
