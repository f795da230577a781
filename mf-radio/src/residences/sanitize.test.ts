import { sanitizeDescription } from './sanitize';

function render(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = sanitizeDescription(html, window);
  return div;
}

describe('sanitizeDescription', () => {
  it('keeps simple emphasis and turns line breaks into <br>', () => {
    const out = render('Du <em>dub</em> et du <strong>grime</strong>\nDeuxième ligne<br>Troisième');
    expect(out.querySelector('em')?.textContent).toBe('dub');
    expect(out.querySelector('strong')?.textContent).toBe('grime');
    expect(out.querySelectorAll('br')).toHaveLength(2);
    expect(out.textContent).toBe('Du dub et du grimeDeuxième ligneTroisième');
  });

  it('removes scripts, event handlers and other tags but keeps their text', () => {
    const out = render(
      'Salut<script>window.pwned = true</script><img src=x onerror="window.pwned = true"><b onclick="x()">gras</b><div style="color:red">bloc</div><iframe src="https://example.org"></iframe>',
    );
    expect(out.innerHTML).toBe('Salut<b>gras</b>bloc');
  });

  it('opens safe links in a new tab and drops javascript: and data: addresses', () => {
    const out = render(
      '<a href="https://example.org/x">site</a> <a href="mailto:a@example.org">mail</a> <a href="javascript:alert(1)">piège</a> <a href="data:text/html,x">data</a>',
    );
    const links = [...out.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.org/x',
      'mailto:a@example.org',
      null,
      null,
    ]);
    for (const a of links) {
      expect(a).toHaveAttribute('target', '_blank');
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('keeps plain text as text (no HTML injection through entities)', () => {
    const out = render('1 &lt; 2 &amp; &lt;script&gt;');
    expect(out.textContent).toBe('1 < 2 & <script>');
    expect(out.querySelector('script')).toBeNull();
  });
});
