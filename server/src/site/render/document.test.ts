import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeDocument } from './document';

// The shell's own template, as its build copies it (the build only adds its scripts and styles).
const template = readFileSync(join(__dirname, '..', '..', '..', '..', 'shell', 'src', 'index.html'), 'utf8');

const page = (alternates?: { type: string; href: string; title: string }[]) =>
  composeDocument(template, {
    head: {
      title: 'Axonberg · Synapses · Résidences',
      description: 'Voyage.',
      canonical: 'https://radio.example.org/residences/axonberg',
      ...(alternates === undefined ? {} : { alternates }),
    },
    body: '<main></main>',
    state: {},
    extraHead: '',
  });

describe('composeDocument', () => {
  it('writes the page’s feeds as alternates, escaped, in the head', () => {
    const html = page([
      { type: 'application/rss+xml', href: 'https://radio.example.org/residences/a/feed.xml', title: 'A "&" <b>' },
    ]);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(
      '<link rel="alternate" type="application/rss+xml" href="https://radio.example.org/residences/a/feed.xml" title="A &quot;&amp;&quot; &lt;b&gt;">',
    );
    expect(page()).not.toContain('rel="alternate"');
  });

  it('keeps the manifest and the theme colour of every page (docs/feeds.md, « Installable »)', () => {
    const head = page().slice(0, page().indexOf('</head>'));
    expect(head).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(head).toMatch(/<meta name="theme-color" content="#[\da-f]{6}" \/>/);
  });
});
