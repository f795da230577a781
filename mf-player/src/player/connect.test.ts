import { parseReplaySource } from './connect';

describe('replay-selected payloads from any script', () => {
  it('accepts a podcast item as the API gives it', () => {
    expect(
      parseReplaySource({
        trackUrn: 'soundcloud:tracks:1',
        url: '/api/demo/replays/a.mp3',
        duration: 3600,
        artist: 'Artiste',
        show: 'Émission',
        cover: '',
        link: 'https://example.org/a',
        pubDate: null,
      }),
    ).toEqual({
      trackUrn: 'soundcloud:tracks:1',
      url: '/api/demo/replays/a.mp3',
      duration: 3600,
      artist: 'Artiste',
      show: 'Émission',
      cover: '',
    });
  });

  it("keeps an episode's slug and start, so that the player can read its tracklist (contract 3.1.0)", () => {
    expect(
      parseReplaySource({ url: '/api/demo/replays/a.mp3', slug: 'axonberg-synapses-11', start: 22, residences: [] }),
    ).toEqual({
      url: '/api/demo/replays/a.mp3',
      duration: 0,
      artist: '',
      show: '',
      cover: '',
      start: 22,
      slug: 'axonberg-synapses-11',
    });
    expect(parseReplaySource({ url: '/a.mp3', slug: '../../admin' })).toEqual({
      url: '/a.mp3',
      duration: 0,
      artist: '',
      show: '',
      cover: '',
    });
  });

  it('fills what a partner may leave out', () => {
    expect(parseReplaySource({ url: 'https://example.org/a.mp3' })).toEqual({
      url: 'https://example.org/a.mp3',
      duration: 0,
      artist: '',
      show: '',
      cover: '',
    });
  });

  it('names the faulty field in French', () => {
    expect(parseReplaySource(null)).toBe('un objet est attendu dans « detail »');
    expect(parseReplaySource({ title: 'x' })).toBe('« url » doit être l’adresse du fichier audio');
    expect(parseReplaySource({ url: 'a.mp3', duration: '3600' })).toBe(
      '« duration » doit être un nombre de secondes positif',
    );
    expect(parseReplaySource({ url: 'a.mp3', duration: -1 })).toBe(
      '« duration » doit être un nombre de secondes positif',
    );
    expect(parseReplaySource({ url: 'a.mp3', artist: 3 })).toBe('« artist » doit être une chaîne');
    expect(parseReplaySource({ url: 'a.mp3', trackUrn: 12 })).toBe('« trackUrn » doit être une chaîne');
  });
});
