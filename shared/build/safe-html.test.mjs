// Descriptions as the pages show them (shared/build/safe-html.cjs): sanitised once, where they enter.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { JSDOM } from 'jsdom';

const require = createRequire(import.meta.url);
const { safeHtml, safeResidences } = require('./safe-html.cjs');

/** The safe HTML as a browser reads it. @param {string} text */
function render(text) {
  const div = new JSDOM('').window.document.createElement('div');
  div.innerHTML = safeHtml(text);
  return div;
}

describe('safeHtml', () => {
  it('keeps simple emphasis and turns line breaks into <br>', () => {
    const out = render('Du <em>dub</em> et du <strong>grime</strong>\nDeuxième ligne<br>Troisième\r\nQuatrième');
    expect(out.querySelector('em')?.textContent).toBe('dub');
    expect(out.querySelector('strong')?.textContent).toBe('grime');
    expect(out.querySelectorAll('br')).toHaveLength(3);
    expect(out.textContent).toBe('Du dub et du grimeDeuxième ligneTroisièmeQuatrième');
  });

  it('removes scripts, event handlers and other tags but keeps their text', () => {
    expect(
      safeHtml(
        'Salut<script>window.pwned = true</script><img src=x onerror="window.pwned = true"><b onclick="x()">gras</b><div style="color:red">bloc</div><iframe src="https://example.org"></iframe><svg onload="x()"></svg>',
      ),
    ).toBe('Salut<b>gras</b>bloc');
  });

  it('opens safe links in a new tab and drops javascript: and data: addresses', () => {
    const links = [
      ...render(
        '<a href="https://example.org/x">site</a> <a href="mailto:a@example.org">mail</a> <a href=" javascript:alert(1)">piège</a> <a href="data:text/html,x">data</a>',
      ).querySelectorAll('a'),
    ];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.org/x',
      'mailto:a@example.org',
      null,
      null,
    ]);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('keeps escaped text as text (no HTML injection through entities)', () => {
    const out = render('1 &lt; 2 &amp; &lt;script&gt;');
    expect(out.textContent).toBe('1 < 2 & <script>');
    expect(out.querySelector('script')).toBeNull();
  });

  it('writes plain text as the sanitiser would, without starting it', () => {
    // The shortcut for text without markup gives what DOMPurify gives the same text.
    for (const text of [
      'Deux heures de dub.',
      '  Espaces  autour  ',
      'Ligne 1\nLigne 2\r\nLigne 3',
      'Guillemets "doubles" et \'simples\'',
      '',
    ]) {
      expect(safeHtml(text)).toBe(safeHtml(`${text}<i></i>`).replace('<i></i>', ''));
    }
  });
});

describe('the residences as a built part holds them', () => {
  it('has each description of the content file as safe HTML, and the rest as it was', () => {
    const file = require.resolve('../content/residences.json');
    const source = readFileSync(file, 'utf8');
    const original = JSON.parse(source);
    const built = JSON.parse(safeResidences(source));
    expect(built.map((/** @type {{ id: string }} */ r) => r.id)).toEqual(
      original.map((/** @type {{ id: string }} */ r) => r.id),
    );
    expect(built.every((/** @type {{ description: string }} */ r) => !r.description.includes('\n'))).toBe(true);
    const hostile = JSON.parse(
      safeResidences(JSON.stringify([{ id: 'x', description: 'ok<script>alert(1)</script>\nfin' }])),
    );
    expect(hostile).toEqual([{ id: 'x', description: 'ok<br>fin' }]);
  });
});
