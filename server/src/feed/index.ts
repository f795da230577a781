// Pure feed rules (docs/site.md, « The feed », and docs/feed.md), shared by the server and any page that needs them.
export * from './item';
export * from './map';
export * from './filter';
export * from './episodes';
export * from './text';
