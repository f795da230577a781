import { findResidence, residences, visibleStyles } from './residences';

describe('residence content', () => {
  it('has about 56 residences with unique ids, including the ones the spec names', () => {
    expect(residences.length).toBeGreaterThanOrEqual(50);
    const ids = residences.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['130E0A', '158cm', 'axonberg']) expect(ids).toContain(id);
  });

  it('has shows with several artists, descriptions with emphasis, and empty style strings', () => {
    expect(residences.some((r) => r.artist.includes(' / '))).toBe(true);
    expect(residences.some((r) => /<(em|strong)>/.test(r.description))).toBe(true);
    expect(residences.some((r) => r.styles.includes(''))).toBe(true);
  });
});

describe('findResidence', () => {
  it('finds an id exactly, then regardless of case, and nothing for an unknown id', () => {
    expect(findResidence('130E0A')?.id).toBe('130E0A');
    expect(findResidence('130e0a')?.id).toBe('130E0A');
    expect(findResidence('AXONBERG')?.id).toBe('axonberg');
    expect(findResidence('nexiste-pas')).toBeUndefined();
  });
});

describe('visibleStyles', () => {
  it('skips empty strings and repeats', () => {
    expect(visibleStyles(['dub', '', ' ', 'dub', 'jungle '])).toEqual(['dub', 'jungle']);
  });
});
