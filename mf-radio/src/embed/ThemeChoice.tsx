import { useId, useState } from 'react';
import { EMBED_THEMES, type EmbedOptions } from '@collectif/shared/embed';
import { useDebounced } from '../ui/useDebounced';
import { Choice } from './Choice';
import { DEFAULT_PICKER_COLOUR, OWN_COLOUR, THEME_LABELS } from './configurator';

/** A colour dragged in the picker is applied after this pause: the preview reloads once. */
export const COLOUR_DEBOUNCE_MS = 250;

/** « L’allure »: one of the themes, or « Ma couleur » with its colour picker. */
export function ThemeChoice({
  theme: chosenTheme,
  colour: chosenColour,
  onChange,
}: {
  theme: EmbedOptions['theme'];
  colour: EmbedOptions['colour'];
  onChange: (next: Partial<EmbedOptions>) => void;
}) {
  // The picker shows the colour being dragged at once, the address's once it changes (a shared
  // choice, the back button), and keeps the last one while a theme is chosen.
  const [picker, setPicker] = useState({ from: chosenColour, value: chosenColour ?? DEFAULT_PICKER_COLOUR });
  if (picker.from !== chosenColour) {
    setPicker({ from: chosenColour, value: chosenColour ?? picker.value });
  }
  const colour = useDebounced((value: string) => {
    onChange({ colour: value });
  }, COLOUR_DEBOUNCE_MS);
  const colourId = useId();
  return (
    <fieldset className="integrer__group">
      <legend>L’allure</legend>
      {EMBED_THEMES.map((theme) => (
        <Choice
          key={theme}
          name="theme"
          value={theme}
          checked={chosenColour === null && chosenTheme === theme}
          onChoose={() => {
            onChange({ theme, colour: null });
          }}
          label={THEME_LABELS[theme]}
        />
      ))}
      <Choice
        className="integrer__choice--colour"
        name="theme"
        value={OWN_COLOUR}
        checked={chosenColour !== null}
        onChoose={() => {
          onChange({ colour: picker.value });
        }}
        label="Ma couleur"
      >
        <label className="visually-hidden" htmlFor={colourId}>
          Choisir ma couleur
        </label>
        <input
          id={colourId}
          className="integrer__colour"
          type="color"
          name="couleur"
          value={picker.value}
          onChange={(event) => {
            const value = event.target.value.toLowerCase();
            setPicker({ from: picker.from, value });
            colour.later(value);
          }}
        />
      </Choice>
    </fieldset>
  );
}
