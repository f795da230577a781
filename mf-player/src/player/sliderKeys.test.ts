import { sliderKeyValue } from './sliderKeys';

describe('slider keyboard rules (docs/player.md, « Slider »)', () => {
  it('arrows move by 1 when there is no step', () => {
    expect(sliderKeyValue('ArrowRight', 40)).toBe(41);
    expect(sliderKeyValue('ArrowUp', 40)).toBe(41);
    expect(sliderKeyValue('ArrowLeft', 40)).toBe(39);
    expect(sliderKeyValue('ArrowDown', 40)).toBe(39);
  });

  it('arrows move by the step when there is one', () => {
    expect(sliderKeyValue('ArrowRight', 40, { step: 5 })).toBe(45);
    expect(sliderKeyValue('ArrowLeft', 40, { step: 5 })).toBe(35);
  });

  it('Page Up and Page Down move by 10 when there is no step', () => {
    expect(sliderKeyValue('PageUp', 40)).toBe(50);
    expect(sliderKeyValue('PageDown', 40)).toBe(30);
    expect(sliderKeyValue('PageUp', 40, { step: 2 })).toBe(42);
  });

  it('Page Up and Page Down move by a page of their own when given (the timeline: 10 s and 5 min)', () => {
    expect(sliderKeyValue('ArrowLeft', 4000, { max: 14_400, step: 10, page: 300 })).toBe(3990);
    expect(sliderKeyValue('PageDown', 4000, { max: 14_400, step: 10, page: 300 })).toBe(3700);
    expect(sliderKeyValue('PageUp', 14_300, { max: 14_400, step: 10, page: 300 })).toBe(14_400);
  });

  it('Home and End go to min and max', () => {
    expect(sliderKeyValue('Home', 40)).toBe(0);
    expect(sliderKeyValue('End', 40)).toBe(100);
    expect(sliderKeyValue('End', 40, { min: 10, max: 60 })).toBe(60);
  });

  it('the result is clamped to min and max', () => {
    expect(sliderKeyValue('PageUp', 95)).toBe(100);
    expect(sliderKeyValue('ArrowLeft', 0)).toBe(0);
    expect(sliderKeyValue('PageDown', 12, { min: 5 })).toBe(5);
  });

  it('other keys are left to the browser', () => {
    expect(sliderKeyValue('Tab', 40)).toBeNull();
    expect(sliderKeyValue('Enter', 40)).toBeNull();
  });
});
