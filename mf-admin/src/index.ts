// The async boundary: shared singletons are negotiated before any of the app's code runs.
import('./bootstrap').catch((error: unknown) => {
  console.error(error);
});
