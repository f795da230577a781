// jest's globalTeardown (jest.config.ts, jest.deploy.config.ts), once every test has ended: the run's
// temporary folder removed (temp-teardown.mjs), and a run that some test keeps alive ended as failed,
// naming what it left open (open-handles.mjs).
import { exitWhenHeldOpen } from './open-handles.mjs';
import removeTemporaryFolder from './temp-teardown.mjs';

/** @param {{ watch?: boolean, watchAll?: boolean }} [globalConfig] jest's, as it passes it */
export default function teardown(globalConfig) {
  removeTemporaryFolder();
  // A watching jest stays alive between runs, on purpose.
  if (globalConfig?.watch !== true && globalConfig?.watchAll !== true) exitWhenHeldOpen();
}
