import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { colors } from './tokens';

const root = join(__dirname, '..', '..');
const css = readFileSync(join(__dirname, 'styles', 'tokens.css'), 'utf8');
const property = (name: string) => new RegExp(`--${name}:\\s*([^;]+);`).exec(css)?.[1]?.trim();

describe('colors', () => {
  it('are the style sheet’s own tokens', () => {
    expect(colors.bg).toBe(property('color-bg'));
    expect(colors.accent).toBe(property('color-accent'));
  });

  it('give every page its theme colour and its manifest (docs/published.md, « Installable »)', () => {
    const html = readFileSync(join(root, 'shell', 'src', 'index.html'), 'utf8');
    expect(html).toContain(`<meta name="theme-color" content="${colors.bg}" />`);
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
  });
});
