import { parseRemotesConfig } from './remotes';

describe('parseRemotesConfig', () => {
  const valid = {
    player: '/mf-player/mf-manifest.json',
    radio: 'https://cdn.example.org/mf-radio/mf-manifest.json',
    label: '/mf-label/mf-manifest.json',
    about: '/mf-about/mf-manifest.json',
  };

  it('accepts a map of every remote to its manifest URL', () => {
    expect(parseRemotesConfig(valid)).toEqual(valid);
  });

  it('names the remote that is missing', () => {
    const { label: _label, ...rest } = valid;
    expect(() => parseRemotesConfig(rest)).toThrow('« label »');
  });

  it('rejects what is not an object', () => {
    expect(() => parseRemotesConfig('radio')).toThrow('objet attendu');
    expect(() => parseRemotesConfig(null)).toThrow('objet attendu');
  });
});
