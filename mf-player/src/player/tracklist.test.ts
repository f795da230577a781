import { rowAt } from './tracklist';

const rows = [0, 11, 22, 33, 44].map((start) => ({ start, title: `À ${String(start)} s` }));

describe('the row that plays at a moment of a replay', () => {
  it('is the last row that has started', () => {
    expect(rowAt(rows, 0)?.start).toBe(0);
    expect(rowAt(rows, 10.9)?.start).toBe(0);
    expect(rowAt(rows, 11)?.start).toBe(11);
    expect(rowAt(rows, 30)?.start).toBe(22);
    expect(rowAt(rows, 3600)?.start).toBe(44);
  });

  it('is none before the first row, and for an empty tracklist', () => {
    expect(rowAt([{ start: 30 }], 29.5)).toBeNull();
    expect(rowAt([], 12)).toBeNull();
  });
});
