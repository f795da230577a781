export * from './fakeServer';
export * from './pages';
