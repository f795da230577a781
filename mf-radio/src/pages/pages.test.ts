import { declaredHref } from '@collectif/shared/testing';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  api,
  makeStore,
  radioSettings,
  releaseUrl,
  siteConfig,
  type Episode,
  type EpisodeDetail,
  type RootState,
} from '@collectif/shared';
import { escapeHtml, headElements, jsonLdElements, missingProperties } from '@collectif/shared/seo';
import { headHtml } from '@collectif/shared/testing';
import { Carousel } from '../home/Carousel';
import { CARD_SIZES } from '../residences/ResidenceCard';
import { shippedResidences as residences, shippedSlides as slides, storeWithContent } from '../testing/fakeApi';
import { episodePage } from './episode';
import { page as home } from '../exposed/HomePage';
import { residence } from './residence';
import { page as list } from '../exposed/ResidencesPage';
import { residenceImages } from '@collectif/shared/pictures';

const pages = { HomePage: home, ResidencePage: residence, ResidencesPage: list };

const ORIGIN = 'https://radio.example.org';

// A page's store once its data arrived: the shipped residences and slides.
let content: RootState;
beforeAll(async () => {
  content = (await storeWithContent([residences[0]!.id, 'inconnue'])).getState();
});

function residenceHead(id: string) {
  const { head } = pages.ResidencePage;
  if (head === undefined) throw new Error('the residence page has no head');
  return head({
    params: { id },
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    href: declaredHref,
    state: content,
  });
}

describe("a residence page's head", () => {
  it('announces the residence’s podcast feed (docs/feeds.md)', () => {
    const residence = residences[0]!;
    const head = residenceHead(residence.id);
    const href = `${ORIGIN}/residences/${encodeURIComponent(residence.id)}/feed.xml`;
    const page = encodeURIComponent(`${ORIGIN}/residences/${encodeURIComponent(residence.id)}`);
    const oembed = `${ORIGIN}/oembed?url=${page}&format=json`;
    // The feed first, then the player for sites that embed a pasted link (docs/embed.md, « oEmbed »).
    expect(head.alternates).toEqual([
      { type: 'application/rss+xml', title: `${residence.artist} · ${residence.show} (podcast)`, href },
      { type: 'application/json+oembed', title: `${residence.artist} · ${residence.show}`, href: oembed },
    ]);
    const html = headHtml(headElements({ title: '', description: '', canonical: ORIGIN, ...head }, 'Collectif'));
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" href="${href}"`);
    expect(html).toContain(
      `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembed)}" title="${residence.artist} · ${residence.show}"/>`,
    );
  });

  it('is titled by the residence, its show and the section', () => {
    const residence = residences[0]!;
    expect(residenceHead(residence.id).title).toBe(`${residence.artist} · ${residence.show} · Résidences`);
  });

  it('announces none for an unknown residence, titled as not found', () => {
    const head = residenceHead('inconnue');
    expect(head.status).toBe(404);
    expect(head.title).toBe('Résidence introuvable · Résidences');
    expect(head.alternates).toBeUndefined();
  });
});

describe('the oEmbed discovery link (docs/embed.md, « oEmbed »)', () => {
  const context = (state = content, params: Record<string, string> = {}) => ({
    params,
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    href: declaredHref,
    state,
  });

  it('is the home’s only alternate: the live player', () => {
    expect(home.head?.(context()).alternates).toEqual([
      {
        type: 'application/json+oembed',
        title: `Le direct · ${siteConfig.name}`,
        href: `${ORIGIN}/oembed?url=${encodeURIComponent(`${ORIGIN}/`)}&format=json`,
      },
    ]);
  });

  it('is an episode’s only alternate: its player, titled as its page; none while unknown', async () => {
    const episode: Episode = {
      url: 'https://feeds.example.org/a.mp3',
      duration: 3600,
      artist: 'Axonberg',
      show: 'Synapses #12',
      cover: '/assets/images/default-cover.webp',
      link: 'https://soundcloud.com/collectif/synapses-12',
      pubDate: '2026-11-01T19:00:00.000Z',
      slug: 'axonberg-synapses-12',
      residences: ['axonberg'],
      styles: [],
    };
    const store = makeStore();
    await store.dispatch(api.util.upsertQueryData('episode', episode.slug, episode));
    const head = episodePage.head?.(context(store.getState(), { slug: episode.slug }));
    expect(head?.alternates).toEqual([
      {
        type: 'application/json+oembed',
        title: 'Axonberg · Synapses #12',
        href: `${ORIGIN}/oembed?url=${encodeURIComponent(`${ORIGIN}/emissions/axonberg-synapses-12`)}&format=json`,
      },
    ]);
    // Not answered yet, and an address that cannot be an episode's (404).
    expect(episodePage.head?.(context(makeStore().getState(), { slug: 'pas-encore' })).alternates).toBeUndefined();
    const unknown = episodePage.head?.(context(makeStore().getState(), { slug: '<b>' }));
    expect(unknown?.status).toBe(404);
    expect(unknown?.alternates).toBeUndefined();
  });
});

describe("an episode page's JSON-LD", () => {
  const episode: EpisodeDetail = {
    url: 'https://feeds.example.org/a.mp3',
    duration: 60,
    artist: 'Axonberg',
    show: 'Synapses #11',
    cover: '/assets/images/default-cover.webp',
    link: 'https://soundcloud.com/collectif/synapses-11',
    pubDate: '2026-10-26T19:00:00.000Z',
    slug: 'axonberg-synapses-11',
    residences: [],
    styles: [],
    tracks: [
      { start: 0, artist: 'Axonberg', title: 'Synapses EP', release: '/album/synapses-ep', also: [] },
      { start: 11, artist: 'Lee « Scratch » Perry', title: '</script><b>Disco Devil</b>', also: [] },
    ],
  };
  const headOf = async (answer: EpisodeDetail) => {
    const store = makeStore();
    await store.dispatch(api.util.upsertQueryData('episode', answer.slug, answer));
    const state = store.getState();
    const context = { params: { slug: answer.slug }, origin: ORIGIN, query: new URLSearchParams() };
    return episodePage.head?.({ ...context, radio: radioSettings(), href: declaredHref, state }) ?? {};
  };

  it('lists the tracks it played as MusicRecording items, a label release with its page', async () => {
    const head = await headOf(episode);
    expect(head.jsonLd?.[0]).toMatchObject({
      '@type': 'RadioEpisode',
      track: [
        {
          '@type': 'MusicRecording',
          name: 'Synapses EP',
          byArtist: { '@type': 'MusicGroup', name: 'Axonberg' },
          url: releaseUrl('/album/synapses-ep'),
        },
        {
          '@type': 'MusicRecording',
          name: '</script><b>Disco Devil</b>',
          byArtist: { '@type': 'MusicGroup', name: 'Lee « Scratch » Perry' },
        },
      ],
    });
    expect(head.jsonLd?.[0]).not.toHaveProperty(['track', 1, 'url']);
    expect(missingProperties(head.jsonLd)).toEqual([]);
    // Written by the site's JSON-LD element: a title cannot end the script early.
    const html = headHtml(jsonLdElements(head));
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<b>');
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(JSON.parse(json)).toMatchObject({ track: [{}, { name: '</script><b>Disco Devil</b>' }] });
  });

  it('has no track without a tracklist', async () => {
    const { tracks: _tracks, ...plain } = episode;
    expect((await headOf(plain)).jsonLd?.[0]).not.toHaveProperty('track');
  });
});

describe('the images a page announces before its scripts (`preloads`)', () => {
  const context = (id?: string) => ({
    params: id === undefined ? {} : ({ id } as Record<string, string>),
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    href: declaredHref,
    state: content,
  });

  it("are the residence's header, and none for an unknown residence", () => {
    const residence = residences[0]!;
    expect(pages.ResidencePage.preloads?.(context(residence.id))).toEqual([
      {
        href: `/assets/images/residences/${encodeURIComponent(residence.id)}-header.webp`,
        // The width the phone shows, as the <img> offers it (ResidenceDetail.tsx).
        imagesrcset: `/assets/images/residences/${encodeURIComponent(residence.id)}-header-800.webp 800w, /assets/images/residences/${encodeURIComponent(residence.id)}-header.webp 1600w`,
        imagesizes: '(min-width: 75rem) 75rem, 100vw',
        fetchpriority: 'high',
      },
    ]);
    expect(pages.ResidencePage.preloads?.(context('inconnue'))).toEqual([]);
  });

  it("are an episode's cover when it is the site's picture, none when it is elsewhere or unknown", async () => {
    const episodeContext = async (cover: string | null) => {
      const store = makeStore();
      if (cover !== null) {
        await store.dispatch(
          api.util.upsertQueryData('episode', 'une-emission', {
            url: 'https://feeds.example.org/a.mp3',
            duration: 3600,
            artist: 'Axonberg',
            show: 'Synapses #12',
            cover,
            link: 'https://soundcloud.com/collectif/synapses-12',
            pubDate: '2026-11-01T19:00:00.000Z',
            slug: 'une-emission',
            residences: ['axonberg'],
            styles: [],
          }),
        );
      }
      return { ...context(), params: { slug: 'une-emission' }, state: store.getState() };
    };
    expect(episodePage.preloads?.(await episodeContext('/assets/images/residences/axonberg-400.webp'))).toEqual([
      {
        href: '/assets/images/residences/axonberg-400.webp',
        imagesrcset:
          '/assets/images/residences/axonberg-400.webp 400w, /assets/images/residences/axonberg-800.webp 800w',
        imagesizes: '(min-width: 800px) 22rem, 100vw',
        fetchpriority: 'high',
      },
    ]);
    expect(episodePage.preloads?.(await episodeContext('https://i1.sndcdn.com/artworks-x.jpg'))).toEqual([]);
    expect(episodePage.preloads?.(await episodeContext('//ailleurs.example/x.jpg'))).toEqual([]);
    expect(episodePage.preloads?.(await episodeContext(null))).toEqual([]);
  });

  it("are the home's first slide and the list's first card, with the attributes their <img> has", () => {
    // The carousel as the server renders it (its effects, which need a layout, do not run).
    const markup = renderToStaticMarkup(createElement(Carousel, { slides }));
    const image = new DOMParser().parseFromString(markup, 'text/html').querySelector('img')!;
    expect(pages.HomePage.preloads?.(context())).toEqual([
      {
        href: image.getAttribute('src'),
        imagesrcset: image.getAttribute('srcset'),
        imagesizes: image.getAttribute('sizes'),
        fetchpriority: 'high',
      },
    ]);
    const images = residenceImages(residences[0]!.id);
    expect(pages.ResidencesPage.preloads?.(context())).toEqual([
      { href: images.card, imagesrcset: images.cardSrcSet, imagesizes: CARD_SIZES, fetchpriority: 'high' },
    ]);
  });
});
