import { sealer } from './seal';

describe('values sealed for Redis', () => {
  const ours = sealer('secret-partage-des-instances-de-test');

  it('gives back the text of a value sealed with the same key, for the same place', () => {
    expect(ours.open('contenu', ours.seal('contenu', '{"a":1}'))).toBe('{"a":1}');
    expect(ours.verify('archive', Buffer.from('octets'), ours.sign('archive', Buffer.from('octets')))).toBe(true);
  });

  it('refuses a value written by hand, changed, sealed for another place or with another key', () => {
    const sealed = ours.seal('contenu', '{"a":1}');
    expect(ours.open('contenu', '{"a":1}')).toBeNull();
    expect(ours.open('contenu', `${sealed.slice(0, sealed.indexOf('.'))}.{"a":2}`)).toBeNull();
    expect(ours.open('direct', sealed)).toBeNull();
    expect(sealer('une-autre-cle-de-vingt-quatre').open('contenu', sealed)).toBeNull();
    expect(ours.verify('archive', Buffer.from('autres'), ours.sign('archive', Buffer.from('octets')))).toBe(false);
    expect(ours.verify('archive', Buffer.from('octets'), '')).toBe(false);
  });
});
