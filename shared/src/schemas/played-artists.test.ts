import * as v from 'valibot';
import { episodeAnswer, releasesAnswer } from './answers';
import { playedArtistAnswer, playedArtistsPageAnswer } from './played-artists';

// The played artists' answers as the client reads them (docs/api.md, « The played artists »): what
// it cannot link to is dropped, a hostile slug is none.

describe('the played artists’ answers, read defensively', () => {
  it('drops a listed artist whose slug cannot make an address, and keeps the others', () => {
    const read = v.parse(playedArtistsPageAnswer, {
      items: [
        { slug: 'basic-channel', name: 'Basic Channel', plays: 2, releases: 0 },
        { slug: '<script>', name: 'Piège', plays: 1, releases: 0 },
        { slug: 'a'.repeat(81), name: 'Trop long', plays: 1, releases: 0 },
        { slug: 'sans-nom', name: '', plays: 1, releases: 0 },
        { slug: 'compte', name: 'Compte', plays: 'beaucoup', releases: -1 },
      ],
      page: 1,
      pages: 1,
      total: 5,
    });
    expect(read.items).toEqual([
      { slug: 'basic-channel', name: 'Basic Channel', plays: 2, releases: 0 },
      { slug: 'compte', name: 'Compte', plays: 0, releases: 0 },
    ]);
  });

  it('reads an artist’s plays and releases it can link to, and only https links as sameAs', () => {
    const read = v.parse(playedArtistAnswer, {
      slug: 'bjork',
      name: 'Björk',
      indexed: 'oui',
      plays: [
        { episode: 'synapses-3', artist: 'Axonberg', show: 'Synapses', date: '2026-11-20', start: 90, title: 'Jóga' },
        { episode: '../admin', artist: 'x', show: 'y', date: '', start: 1, title: 'z' },
        { episode: 'synapses-2', start: -5 },
      ],
      releases: [
        { title: 'Un disque', href: '/album/un-disque', url: 'https://label.example.org/album/un-disque' },
        { title: 'Piège', href: '/album/piege', url: 'javascript:alert(1)' },
      ],
      sameAs: ['https://bjork.bandcamp.com', 'http://insecure.example.org', 'javascript:alert(1)', 42],
    });
    expect(read.indexed).toBe(false);
    expect(read.plays.map((play) => play.episode)).toEqual(['synapses-3']);
    expect(read.releases.map((release) => release.title)).toEqual(['Un disque']);
    expect(read.sameAs).toEqual(['https://bjork.bandcamp.com']);
    expect(v.safeParse(playedArtistAnswer, { slug: 'Björk', name: 'Björk', plays: [], releases: [] }).success).toBe(
      false,
    );
  });

  it('reads a hostile artistSlug on a tracklist row or a release as none', () => {
    const episode = v.parse(episodeAnswer, {
      url: 'https://audio.example.org/a.mp3',
      duration: 60,
      artist: 'Axonberg',
      show: 'Synapses',
      cover: '',
      link: 'https://radio.example.org/a',
      pubDate: null,
      slug: 'synapses-3',
      residences: [],
      styles: [],
      tracks: [
        { start: 0, artist: 'Björk', title: 'Jóga', also: [], artistSlug: 'bjork' },
        { start: 5, artist: 'Piège', title: 'x', also: [], artistSlug: '"><img src=x>' },
      ],
    });
    expect(episode.tracks?.map((row) => row.artistSlug)).toEqual(['bjork', undefined]);
    const releases = v.parse(releasesAnswer, [
      { href: '/album/un-disque', image: '/i.webp', title: 'Un', artist: 'Björk', artistSlug: 'bjork' },
      { href: '/album/deux', image: '/i.webp', title: 'Deux', artist: 'X', artistSlug: 'X Y' },
    ]);
    expect(releases.map((release) => release.artistSlug)).toEqual(['bjork', undefined]);
  });
});
