import { makeStore, radioSettings } from '@collectif/shared';
import { headTags } from '@collectif/shared/seo';
import { residences } from './residences/residences';
import { pages } from './server';

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
