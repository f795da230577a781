export * from './fakeServer';
export * from './pages';
export * from './head';
export * from './until';
export * from './serverContainer';
export * from './hostile';
