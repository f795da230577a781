// webpack loader: the module it loads exports nothing (mf-player/webpack.config.mjs says where).
module.exports = function emptyModule() {
  return 'export {};';
};
