// The contract every part compiles against. Shared at run time as one federated singleton.
export * from './types';
export * from './time';
export * from './schedule';
export * from './resume';
export { parseStartTime, startTimeParam, isSlug } from './episodeAddress';
export * from './http';
export * from './tokens';
export * from './remotes';
export { RESIDENCE_PICTURES, residenceImages, residencePictureUrls } from './residenceImages.mjs';
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
export { ExternalLink } from './ui/ExternalLink';
export { StatusMessage } from './ui/StatusMessage';
export { Card, cardDate, type CardProps, type CardImage } from './ui/Card';
export { EmbedFacade } from './ui/EmbedFacade';
export { useReveal } from './ui/useReveal';
// Kept one version for parts built before « One head » (docs/parts.md, « The contract's versions »).
// eslint-disable-next-line @typescript-eslint/no-deprecated
export { usePageMeta } from './ui/usePageMeta';
export { scrollToTop, prefersReducedMotion } from './ui/scroll';
export { answerStatus, type AnswerStatus } from './ui/answerStatus';
export { readWith, replaySelection, legacyReplayNames, nowPlayingAnswer } from './schemas/answers';
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
// Kept one version for parts built before « Safe HTML » (docs/parts.md, « The contract's versions »).
// eslint-disable-next-line @typescript-eslint/no-deprecated
export { useDocumentWindow } from './environment';
export { useReducedMotion } from './ui/useReducedMotion';
export * from './libraries';
