import { FAKE_FRAME_SIZE, fakeMp3 } from '../api/testing/fixtures';
import { parseMp3, readFrameHeader } from './mp3';

describe('parseMp3', () => {
  it('splits a file into its frames and knows their playing time', () => {
    const parsed = parseMp3(fakeMp3(10));
    expect(parsed.frames).toHaveLength(10);
    expect(parsed.frames[3]).toEqual({ offset: 3 * FAKE_FRAME_SIZE, size: FAKE_FRAME_SIZE });
    expect(parsed.sampleRate).toBe(22050);
    expect(parsed.samplesPerFrame).toBe(576);
    expect(parsed.frameMs).toBeCloseTo(26.122, 3);
    expect(parsed.seconds).toBeCloseTo(0.26122, 4);
  });

  it('skips an ID3v2 tag and a Xing/Info frame', () => {
    const id3 = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5]);
    const info = fakeMp3(1);
    info.write('Info', 4 + 9);
    const parsed = parseMp3(Buffer.concat([id3, info, fakeMp3(4)]));
    expect(parsed.frames).toHaveLength(4);
    expect(parsed.frames[0]?.offset).toBe(id3.length + FAKE_FRAME_SIZE);
  });

  it('stops at bytes that are not a frame, and refuses a file without any', () => {
    expect(parseMp3(Buffer.concat([fakeMp3(3), Buffer.from('TAG fin de fichier')])).frames).toHaveLength(3);
    expect(() => parseMp3(Buffer.from('<html>pas du mp3</html>'))).toThrow(/aucune trame/);
  });

  it('reads MPEG-1 headers too (44.1 kHz, 128 kb/s: 417 bytes)', () => {
    const header = Buffer.from([0xff, 0xfb, 0x90, 0x64]);
    expect(readFrameHeader(header, 0)).toMatchObject({ size: 417, sampleRate: 44100, samplesPerFrame: 1152 });
    expect(readFrameHeader(Buffer.from([0xff, 0xfb, 0xf0, 0x64]), 0)).toBeNull();
  });
});
