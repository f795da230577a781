import { headHtml } from '../testing/head';
import { describe as describeText, escapeHtml, headElements, jsonLdElements, scriptJson, type PageHead } from './head';

/** The head's elements then its JSON-LD, as React writes them. */
const headTags = (head: PageHead, siteName: string) =>
  headHtml([...headElements(head, siteName), ...jsonLdElements(head)]);

const HEAD: PageHead = {
  title: 'Axonberg · Synapses · Résidences',
  description: 'Voyage entre electro de Détroit et techno hypnotique.',
  canonical: 'https://radio.example.org/residences/axonberg',
  image: { url: 'https://radio.example.org/assets/images/residences/axonberg-header.webp', alt: 'Axonberg' },
};

/** The tags of a head, one per entry, in order. */
const tags = (html: string) => html.match(/<(title|meta|link|script)[^>]*>/g) ?? [];

describe('headElements and jsonLdElements', () => {
  it('give title, description, canonical, Open Graph, Twitter card, then JSON-LD, in that order', () => {
    const html = headTags(
      { ...HEAD, jsonLd: [{ '@type': 'RadioSeries', name: 'Synapses' }], ogType: 'music.radio_station' },
      'Collectif Garonne',
    );
    expect(
      tags(html).map((tag) => /(?:name|property|rel)="([^"]+)"|^<(title|script)/.exec(tag)?.slice(1).join('')),
    ).toEqual([
      'title',
      'description',
      'canonical',
      'og:site_name',
      'og:locale',
      'og:type',
      'og:title',
      'og:description',
      'og:url',
      'og:image',
      'og:image:alt',
      'twitter:card',
      // Title, description and image: X reads the Open Graph ones.
      'twitter:image:alt',
      'script',
    ]);
    expect(html).toContain('<title>Axonberg · Synapses · Résidences</title>');
    expect(html).toContain('<meta property="og:type" content="music.radio_station"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain(
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"RadioSeries","name":"Synapses"}</script>',
    );
  });

  it('falls back to a small card with no image, and lists feeds as alternates', () => {
    const { image: _image, ...rest } = HEAD;
    const html = headTags(
      {
        ...rest,
        alternates: [{ type: 'application/rss+xml', href: 'https://radio.example.org/flux.xml', title: 'Flux' }],
      },
      'Collectif Garonne',
    );
    expect(html).toContain('<meta name="twitter:card" content="summary"/>');
    expect(html).not.toContain('og:image');
    expect(html).toContain(
      '<link rel="alternate" type="application/rss+xml" href="https://radio.example.org/flux.xml" title="Flux"/>',
    );
  });

  it('tells search engines to leave a page out only when it says so', () => {
    expect(headTags(HEAD, 'Collectif Garonne')).not.toContain('robots');
    const html = headTags({ ...HEAD, noindex: true }, 'Collectif Garonne');
    expect(tags(html).slice(0, 3)).toEqual([
      '<title>',
      '<meta name="description" content="Voyage entre electro de Détroit et techno hypnotique."/>',
      '<meta name="robots" content="noindex"/>',
    ]);
  });

  it('escapes every value for where it goes, so that no text from a feed can add markup', () => {
    const hostile = '"><script>alert(1)</script>';
    const html = headTags(
      {
        title: `</title>${hostile}`,
        description: hostile,
        canonical: `https://radio.example.org/${hostile}`,
        image: { url: hostile, alt: hostile },
        jsonLd: [{ '@type': 'Thing', name: `</script>${hostile}<!--` }],
      },
      `Site ${hostile}`,
    );
    expect(html).not.toContain('<script>alert(1)');
    // Only the elements of the head: no value opened one of its own.
    expect(
      html.match(/<[a-z]+/g)?.filter((tag: string) => !['<title', '<meta', '<link', '<script'].includes(tag)),
    ).toEqual([]);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<title>&lt;/title&gt;&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    // One script element, closed once: the JSON-LD's text cannot end it early.
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(JSON.parse(json)).toMatchObject({ name: `</script>${hostile}<!--` });
  });
});

describe('escapeHtml and scriptJson', () => {
  it('escape the characters that carry meaning in HTML and in a script element', () => {
    expect(escapeHtml(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &#39; f');
    expect(scriptJson({ text: '</script><!-- & \u2028' })).toBe(
      '{"text":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028"}',
    );
  });
});

describe('describe', () => {
  it('reads the first sentence of a text with a little HTML, tags dropped and entities read', () => {
    expect(
      describeText(
        '<p>Voyage entre <em>electro</em> &amp; techno.<br>Chaque épisode est construit autour d’un thème.</p>',
      ),
    ).toBe('Voyage entre electro & techno.');
  });

  it('cuts a long text at a word, with an ellipsis, within the limit', () => {
    const text = `${'Une émission très longue '.repeat(20)}fin`;
    const description = describeText(text, 60);
    expect(description.length).toBeLessThanOrEqual(60);
    expect(description).toBe('Une émission très longue Une émission très longue Une…');
    expect(describeText('Court', 60)).toBe('Court');
    expect(describeText('   ')).toBe('');
  });
});
