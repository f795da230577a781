// @ts-check
// A remote's server bundle entry, made from its exposed modules (docs/rendering.md, « Server
// bundles »): each module's component (`modules`) and, for a page, the definition it exports as
// `page` (`pages`), as the site's server reads them. Generated, so that a new page is its module
// and its line in the registry of parts, nothing else. The file this loader is applied to is a
// placeholder (server-entry.mjs); `?exposes=A,B` names the modules, found under the remote's
// `src/exposed/`, imported by paths relative to the placeholder.
const { dirname, join, relative, sep } = require('node:path');

/** @this {import('webpack').LoaderContext<{ exposes?: string }>} */
module.exports = function serverEntry() {
  const exposes = String(this.getOptions().exposes ?? '')
    .split(',')
    .filter((name) => /^[A-Z]\w*$/.test(name));
  const from = dirname(this.resourcePath);
  const imports = exposes.map((name, index) => {
    const file = relative(from, join(this.rootContext, 'src', 'exposed', `${name}.tsx`))
      .split(sep)
      .join('/');
    return `import * as m${String(index)} from ${JSON.stringify(file.startsWith('.') ? file : `./${file}`)};`;
  });
  const entries = exposes.map((name, index) => `[${JSON.stringify(name)}, m${String(index)}]`).join(', ');
  return [
    ...imports,
    `const exposed = [${entries}];`,
    'export const modules = Object.fromEntries(exposed.map(([name, module]) => [name, module.default]));',
    'export const pages = Object.fromEntries(',
    '  exposed.filter(([, module]) => module.page !== undefined).map(([name, module]) => [name, module.page]),',
    ');',
    '',
  ].join('\n');
};
