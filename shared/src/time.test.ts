import { formatTime, speakTime } from './time';

describe('formatTime', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [65, '1:05'],
    [599.9, '9:59'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
    [36000, '10:00:00'],
  ])('shows %p seconds as %p', (input, expected) => {
    expect(formatTime(input)).toBe(expected);
  });

  it.each([NaN, Infinity, -1])('shows invalid value %p as 0:00', (input) => {
    expect(formatTime(input)).toBe('0:00');
  });
});

describe('speakTime', () => {
  it('speaks hours, minutes and seconds in French', () => {
    expect(speakTime(3725)).toBe('1 heure 2 minutes 5 secondes');
    expect(speakTime(0)).toBe('0 seconde');
    expect(speakTime(60)).toBe('1 minute');
  });
});
