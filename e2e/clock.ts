export { E2E_NOW } from './clock.mjs';
