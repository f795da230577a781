import { previewHtml } from './preview';

describe('the preview of a presentation', () => {
  it('shows the emphasis the site keeps and the line breaks', () => {
    expect(previewHtml('Du <em>dub</em> et du <strong>steppers</strong>.\nUn jeudi sur deux.')).toBe(
      'Du <em>dub</em> et du <strong>steppers</strong>.<br>Un jeudi sur deux.',
    );
  });

  it('shows anything else as text: no element, no attribute, no handler', () => {
    const html = previewHtml('<script>alert(1)</script><em onclick="x()">a</em><img src=x onerror=alert(2)> & "b"');
    expect(html).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt;&lt;em onclick=&quot;x()&quot;&gt;a</em>&lt;img src=x onerror=alert(2)&gt; &amp; &quot;b&quot;',
    );
    const container = document.createElement('div');
    container.innerHTML = html;
    expect(container.querySelectorAll('script, img, [onclick]')).toHaveLength(0);
  });
});
