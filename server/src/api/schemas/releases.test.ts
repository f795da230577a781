import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { releasesContent } from './releases';

const contentDir = join(__dirname, '..', '..', '..', 'content');

const good = {
  href: '/album/garonne-dub-vol-6',
  image: '/assets/images/releases/garonne-dub.webp',
  title: 'T',
  artist: 'A',
};

const fixtures: { name: string; data: unknown; valid: boolean }[] = [
  { name: 'one release', data: [good], valid: true },
  {
    name: 'several releases',
    data: [good, { ...good, href: '/album/x1', image: '/assets/images/releases/x-2.webp' }],
    valid: true,
  },
  { name: 'an empty list', data: [], valid: false },
  { name: 'not a list', data: good, valid: false },
  { name: 'a missing field', data: [{ href: good.href, image: good.image, title: 'T' }], valid: false },
  { name: 'an unknown field', data: [{ ...good, year: 2024 }], valid: false },
  { name: 'an href outside /album/', data: [{ ...good, href: '/albums/x' }], valid: false },
  { name: 'an href with capitals', data: [{ ...good, href: '/album/Garonne' }], valid: false },
  { name: 'a picture that is not webp', data: [{ ...good, image: '/assets/images/releases/x.png' }], valid: false },
  { name: 'an empty title', data: [{ ...good, title: '' }], valid: false },
  { name: 'an artist of 121 characters', data: [{ ...good, artist: 'a'.repeat(121) }], valid: false },
  { name: 'a title of 120 characters', data: [{ ...good, title: 'a'.repeat(120) }], valid: true },
  { name: 'a number as title', data: [{ ...good, title: 3 }], valid: false },
];

describe('the releases content: what its schema accepts and refuses', () => {
  it.each(fixtures)('$name', ({ data, valid }) => {
    expect(v.is(releasesContent, data)).toBe(valid);
  });

  it('accept the shipped file', () => {
    const shipped: unknown = JSON.parse(readFileSync(join(contentDir, 'releases.json'), 'utf8'));
    expect(v.is(releasesContent, shipped)).toBe(true);
  });
});
