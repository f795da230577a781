export * from './fakeServer';
export * from './pages';
export * from './head';
