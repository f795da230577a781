import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { makeStore, radioSettings, residenceImages } from '@collectif/shared';
import { headTags } from '@collectif/shared/seo';
import { Carousel } from '../home/Carousel';
import { slides } from '../home/slides';
import { CARD_SIZES } from '../residences/ResidenceCard';
import { residences } from '../residences/residences';
import { home } from './home';
import { residence } from './residence';
import { list } from './residences';

const pages = { HomePage: home, ResidencePage: residence, ResidencesPage: list };

const ORIGIN = 'https://radio.example.org';

function residenceHead(id: string) {
  const { head } = pages.ResidencePage;
  if (head === undefined) throw new Error('the residence page has no head');
  return head({
    params: { id },
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    state: makeStore().getState(),
  });
}

describe("a residence page's head", () => {
  it('announces the residence’s podcast feed (docs/feeds.md)', () => {
    const residence = residences[0]!;
    const head = residenceHead(residence.id);
    const href = `${ORIGIN}/residences/${encodeURIComponent(residence.id)}/feed.xml`;
    expect(head.alternates).toEqual([
      { type: 'application/rss+xml', title: `${residence.artist} · ${residence.show} (podcast)`, href },
    ]);
    const html = headTags({ title: '', description: '', canonical: ORIGIN, ...head }, 'Collectif');
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" href="${href}"`);
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

describe('the images a page announces before its scripts (`preloads`)', () => {
  const context = (id?: string) => ({
    params: id === undefined ? {} : ({ id } as Record<string, string>),
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    state: makeStore().getState(),
  });

  it("are the residence's header, and none for an unknown residence", () => {
    const residence = residences[0]!;
    expect(pages.ResidencePage.preloads?.(context(residence.id))).toEqual([
      { href: `/assets/images/residences/${encodeURIComponent(residence.id)}-header.webp`, fetchpriority: 'high' },
    ]);
    expect(pages.ResidencePage.preloads?.(context('inconnue'))).toEqual([]);
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
