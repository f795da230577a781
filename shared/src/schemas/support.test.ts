import * as v from 'valibot';
import site from '../../config/site.json';
import { parseSupportLinks } from '../config/radio';
import { supportAnswer, supportFiguresAnswer, supportRedirectAnswer, supportReturnAnswer } from './support';

const good = {
  helloasso: true,
  external: 'https://www.helloasso.com/associations/collectif/formulaires/1',
  membership: {
    formUrl: 'https://www.helloasso.com/associations/collectif/adhesions/adhesion-2026',
    tiers: [
      { id: 1, label: 'Adhésion', price: 1500, description: 'Une voix à l’AG.' },
      { id: 2, label: '', price: 3000 },
      { id: 3, label: 'Prix négatif', price: -5 },
    ],
  },
  donation: { suggested: [1000, 2000], min: 100, max: 100_000, monthlyUrl: '/api/demo/helloasso/formulaire/don' },
  progress: { year: 2026, members: 142, goal: 200, at: '2026-03-04T18:00:00.000Z', stale: false },
  taxReceipt: false,
};

describe('GET /api/support as the client reads it', () => {
  it('drops the tiers it cannot show and keeps the rest', () => {
    const read = v.parse(supportAnswer, good);
    expect(read.membership?.tiers).toEqual([
      { id: 1, label: 'Adhésion', price: 1500, description: 'Une voix à l’AG.' },
    ]);
    expect(read.progress).toEqual(good.progress);
  });

  it('reads a hostile answer as no membership, no progress and no address to go to', () => {
    const read = v.parse(supportAnswer, {
      ...good,
      external: 'javascript:alert(1)',
      membership: { formUrl: '//ailleurs.example', tiers: [] },
      progress: { year: 2026, members: 'beaucoup', at: 'hier', stale: false },
      donation: { suggested: ['dix'], min: -1, max: 'x', monthlyUrl: 'http://ailleurs.example' },
    });
    expect(read.external).toBe('');
    expect(read.membership).toBeNull();
    expect(read.progress).toBeNull();
    expect(read.donation).toEqual({ suggested: [], min: 100, max: 100_000, monthlyUrl: '' });
  });

  it('goes only to an https address or a path of the site', () => {
    expect(v.is(supportRedirectAnswer, { redirectUrl: 'https://www.helloasso.com/checkout/1' })).toBe(true);
    expect(v.is(supportRedirectAnswer, { redirectUrl: '/api/demo/helloasso/paiement/1' })).toBe(true);
    for (const redirectUrl of ['javascript:alert(1)', '//ailleurs.example/x', 'http://ailleurs.example', 42]) {
      expect(v.is(supportRedirectAnswer, { redirectUrl })).toBe(false);
    }
  });

  it('reads the return and the figures defensively', () => {
    expect(v.is(supportReturnAnswer, { state: 'payé', kind: 'don' })).toBe(false);
    expect(v.parse(supportReturnAnswer, { state: 'paid', kind: 'don', amount: -3 })).toEqual({
      state: 'paid',
      kind: 'don',
    });
    expect(
      v.parse(supportFiguresAnswer, {
        year: 2026,
        members: null,
        residences: [
          { id: 'axonberg', donations: 2 },
          { id: '', donations: 1 },
        ],
      }).residences,
    ).toEqual([{ id: 'axonberg', donations: 2 }]);
  });
});

describe('RadioSettings.support', () => {
  it('is the page or none, and an https external link, else site.json’s', () => {
    expect(parseSupportLinks({ page: '/soutenir', external: 'https://exemple.org/dons' })).toEqual({
      page: '/soutenir',
      external: 'https://exemple.org/dons',
    });
    expect(parseSupportLinks({ page: 'https://ailleurs.example', external: 'javascript:alert(1)' })).toEqual({
      page: '',
      external: site.links.donation,
    });
    // An older page without them: today's behaviour, the external link.
    expect(parseSupportLinks(undefined)).toEqual({ page: '', external: site.links.donation });
  });
});
