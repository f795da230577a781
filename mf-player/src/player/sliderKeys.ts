import { SLIDER_MAX, SLIDER_MIN } from './playerSlice';

export interface SliderRange {
  min?: number;
  max?: number;
  /** Undefined when the slider has no step of its own. */
  step?: number;
  /** What Page Up and Page Down move by, when not the step. */
  page?: number;
}

/**
 * The slider's keys (docs/player.md, « Slider »): arrows move by the step or 1, Page Up and Page Down by
 * `page`, else by the step, else by 10, Home and End to the ends; the result is clamped.
 * Returns null for keys the slider does not handle.
 */
export function sliderKeyValue(
  key: string,
  value: number,
  { min = SLIDER_MIN, max = SLIDER_MAX, step, page }: SliderRange = {},
): number | null {
  const small = step ?? 1;
  const big = page ?? step ?? 10;
  let next: number;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      next = value + small;
      break;
    case 'ArrowLeft':
    case 'ArrowDown':
      next = value - small;
      break;
    case 'PageUp':
      next = value + big;
      break;
    case 'PageDown':
      next = value - big;
      break;
    case 'Home':
      next = min;
      break;
    case 'End':
      next = max;
      break;
    default:
      return null;
  }
  return Math.min(max, Math.max(min, next));
}
