import { MAX_CHAPTERS, readId3, showTag, tagText } from './id3';

describe('the show’s ID3v2.4 tag', () => {
  const chapters = Array.from({ length: 300 }, (_, i) => ({
    startMs: i * 1000,
    endMs: (i + 1) * 1000,
    title: `Titre ${String(i)}`,
  }));

  it('lists at most 255 chapters (a CTOC counts them in one byte), each read back with its times', () => {
    const tag = readId3(showTag({ title: 'Émission', artist: 'Axonberg', chapters }));
    expect(tag?.toc).toHaveLength(MAX_CHAPTERS);
    expect(tag?.chapters).toHaveLength(MAX_CHAPTERS);
    expect(tag?.chapters[254]).toEqual({ id: 'ch254', startMs: 254_000, endMs: 255_000, title: 'Titre 254' });
  });

  it('is padded to the place reserved for it, and refuses a place too small', () => {
    const tag = showTag({ title: 'Émission', artist: 'Axonberg', chapters: [] }, 4096);
    expect(tag).toHaveLength(4096);
    expect(readId3(Buffer.concat([tag, Buffer.from([0xff, 0xfb])]))).toMatchObject({
      size: 4096,
      texts: { TIT2: 'Émission', TPE1: 'Axonberg' },
    });
    expect(() => showTag({ title: 'Émission', artist: 'Axonberg', chapters }, 100)).toThrow(/plus grande que sa place/);
  });

  it('keeps texts as text: control characters and line separators out, at most 300 characters', () => {
    expect(tagText('  a\u0000b\nc\u2028d\u0085e  ')).toBe('a b c d e');
    expect(Array.from(tagText('é'.repeat(400)))).toHaveLength(300);
  });

  it('reads no tag where none is, and refuses another version', () => {
    expect(readId3(Buffer.from([0xff, 0xfb, 0x90, 0x64]))).toBeNull();
    expect(() => readId3(Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]))).toThrow(/seule la version 2\.4/);
  });
});
