// The shapes of /api answers, for the server (which has no use for the rest of the shared package).
export * from './answers';
