import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { resetEvents } from '../../shared/src/events/bus';
import { providePages } from '../../shared/src/pages';
import { declaredPages } from '../../shared/src/testing/pages';

// Tests wait on state (findBy…, waitFor), never on time: how long they may wait is a guard against
// a state that never comes, not a timing goal (those are benchmarks, bench/). Testing Library's
// 1 s was hit on a loaded machine of two cores by a first render that needs a loopback answer;
// 10 s stays under jest's own guard (testTimeout, jest.config.ts).
configure({ asyncUtilTimeout: 10_000 });

// The site's pages as the server hands them to the shell: every remote's declarations.
providePages(declaredPages());

// The event bus lives on the page (window), as integrators' plain JavaScript sees it, and keeps the
// last payload of the events late subscribers need: every test starts from a page that has heard
// nothing, without each test having to remember it.
beforeEach(() => {
  resetEvents();
});
