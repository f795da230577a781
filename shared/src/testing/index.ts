export * from './fakeServer';
