import type { KeyboardEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@collectif/shared';
import {
  selectCurrentTime,
  selectDuration,
  selectSlider,
  sliderGrabbed,
  sliderMoved,
  sliderReleased,
  SLIDER_MAX,
  SLIDER_MIN,
} from '../player/playerSlice';
import { sliderKeyValue } from '../player/sliderKeys';
import { speakTime } from '@collectif/shared/time';

/** The replay position: a native range, with the keys of docs/player.md, « Slider ». */
export function ProgressSlider() {
  const dispatch = useAppDispatch();
  const slider = useAppSelector(selectSlider);
  const currentTime = useAppSelector(selectCurrentTime);
  const duration = useAppSelector(selectDuration);

  const grab = () => {
    dispatch(sliderGrabbed());
    // The click that ends a drag comes right after pointerup: the release waits for it, so that
    // the click is still seen as part of the drag and does not toggle the player.
    const release = () => {
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      setTimeout(() => dispatch(sliderReleased()), 0);
    };
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const next = sliderKeyValue(event.key, slider);
    if (next === null) return;
    event.preventDefault();
    dispatch(sliderMoved(next));
  };

  return (
    <input
      className="player__slider"
      type="range"
      min={SLIDER_MIN}
      max={SLIDER_MAX}
      step="any"
      tabIndex={0}
      value={slider}
      aria-label="Position dans l’émission"
      aria-valuetext={`${speakTime(currentTime)} sur ${speakTime(duration)}`}
      onPointerDown={grab}
      onChange={(event) => dispatch(sliderMoved(Number(event.currentTarget.value)))}
      onKeyDown={onKeyDown}
    />
  );
}
