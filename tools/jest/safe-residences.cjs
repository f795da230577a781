// The residences' content file in the parts' tests as in a built part: descriptions as safe HTML
// (shared/build/safe-html.cjs).
const { safeResidences } = require('../../shared/build/safe-html.cjs');

module.exports = {
  process(source) {
    // Jest parses a JSON module's transformed text as JSON.
    return { code: safeResidences(source) };
  },
};
