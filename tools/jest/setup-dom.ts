import '@testing-library/jest-dom';
import { resetEvents } from '../../shared/src/events/bus';
import { providePages } from '../../shared/src/pages';
import { declaredPages } from '../../shared/src/testing/pages';

// The site's pages as the server hands them to the shell: every remote's declarations.
providePages(declaredPages());

// The event bus lives on the page (window), as integrators' plain JavaScript sees it, and keeps the
// last payload of the events late subscribers need: every test starts from a page that has heard
// nothing, without each test having to remember it.
beforeEach(() => {
  resetEvents();
});
