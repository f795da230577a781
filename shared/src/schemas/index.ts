// The shapes of /api answers, for the server (which has no use for the rest of the shared package)
// and for the parts that read an answer the singleton's slice does not ask for.
export * from './answers';
export * from './support';
export * from './played-artists';
export * from './response-schema';
export * from './parts';
