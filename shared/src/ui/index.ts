// Small UI pieces with no state of their own (a helper, docs/parts.md, « Singletons and helpers »):
// imported by this path, bundled into each part that uses them. What they need of the page's one
// router they take from @collectif/shared.
export { Card, cardDate, type CardProps, type CardImage } from './Card';
export { EmbedFacade } from './EmbedFacade';
export { ExternalLink } from './ExternalLink';
export { StatusMessage } from './StatusMessage';
export { answerStatus, type AnswerStatus } from './answerStatus';
export { prefersReducedMotion, scrollToTop } from './scroll';
export { useReducedMotion } from './useReducedMotion';
export { useReveal } from './useReveal';
export { useWanted } from './useWanted';
