// Server bundles render markup only: the browser bundles bring the styles (docs/rendering.md).
module.exports = function ignoreStyle() {
  return 'export {};';
};
