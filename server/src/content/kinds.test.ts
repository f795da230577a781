import { REMOVED, withEntry } from './kinds';

// A save of one entry of a list kind, as the editor's routes make it (docs/content.md, « Two
// editors, one residence »): the entry in its place, added when new, or taken out.
describe('withEntry', () => {
  const lists = [
    { episode: 'a-1', tracks: [] },
    { episode: 'b-2', tracks: [] },
  ];

  it('puts an entry in its place by the kind’s key, or adds it at the end when it is new', () => {
    const changed = { episode: 'a-1', tracks: [{ start: 0, artist: 'X', title: 'Y' }] };
    expect(withEntry('tracklists', 'a-1', changed, lists)).toEqual([changed, lists[1]]);
    const added = { episode: 'c-3', tracks: [] };
    expect(withEntry('tracklists', 'c-3', added, lists)).toEqual([...lists, added]);
    expect(withEntry('residences', 'axonberg', { id: 'axonberg' }, [{ id: 'axonberg', show: 'S' }])).toEqual([
      { id: 'axonberg' },
    ]);
  });

  it('takes an entry out, and leaves the list as it is when it has none of that name', () => {
    expect(withEntry('tracklists', 'a-1', REMOVED, lists)).toEqual([lists[1]]);
    expect(withEntry('tracklists', 'z-9', REMOVED, lists)).toEqual(lists);
  });

  it('refuses a kind whose entries have no name', () => {
    expect(() => withEntry('about', 'x', {}, [])).toThrow('about : ses entrées n’ont pas de nom');
  });
});
