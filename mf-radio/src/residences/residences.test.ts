import type { Residence } from '@collectif/shared';
import { findResidence, visibleStyles } from './residences';

const residence = (id: string): Residence => ({ id, artist: id, show: 'Émission', description: '', styles: [] });
const list = [residence('130E0A'), residence('axonberg'), residence('Basse Cour')];

describe('findResidence', () => {
  it('finds an id exactly, then regardless of case, and nothing for an unknown id', () => {
    expect(findResidence('130E0A', list)?.id).toBe('130E0A');
    expect(findResidence('130e0a', list)?.id).toBe('130E0A');
    expect(findResidence('AXONBERG', list)?.id).toBe('axonberg');
    expect(findResidence('Basse Cour', list)?.id).toBe('Basse Cour');
    expect(findResidence('nexiste-pas', list)).toBeUndefined();
  });

  it('prefers the exact id when two differ only by case', () => {
    const twins = [residence('abc'), residence('ABC')];
    expect(findResidence('ABC', twins)).toBe(twins[1]);
    expect(findResidence('Abc', twins)).toBe(twins[0]);
  });
});

describe('visibleStyles', () => {
  it('skips empty strings and repeats', () => {
    expect(visibleStyles(['dub', '', ' ', 'dub', 'jungle '])).toEqual(['dub', 'jungle']);
  });
});
