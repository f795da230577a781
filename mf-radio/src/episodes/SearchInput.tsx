import { MAX_QUERY_LENGTH } from './search';

/**
 * The box a visitor types in to find an episode, in the archive and in « Intégrer »'s picker alike
 * (docs/episodes.md, « The archive »): bounded as the server reads a search, with the same hint.
 * `onType` gets each change; `onEnter`, when given, takes Enter instead of the form.
 */
export function EpisodeSearchInput({
  id,
  name,
  value,
  onType,
  onEnter,
}: {
  id: string;
  name: string;
  value: string;
  onType: (value: string) => void;
  onEnter?: () => void;
}) {
  return (
    <input
      id={id}
      type="search"
      name={name}
      value={value}
      maxLength={MAX_QUERY_LENGTH}
      placeholder="Artiste, émission, style…"
      autoComplete="off"
      onChange={(event) => {
        onType(event.target.value);
      }}
      onKeyDown={
        onEnter === undefined
          ? undefined
          : (event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                onEnter();
              }
            }
      }
    />
  );
}
