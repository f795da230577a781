// Pure feed rules (SPEC sections 3, 5 and 9), shared by the server and any page that needs them.
export * from './item';
export * from './map';
export * from './filter';
