// The residences' descriptions as safe HTML in a built part (safe-html.cjs says why).
const { safeResidences } = require('./safe-html.cjs');

module.exports = function safeResidencesLoader(source) {
  return safeResidences(source);
};
