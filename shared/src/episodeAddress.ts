// An episode's address as the browser and the server read it (docs/episodes.md): what can be a
// slug, and the start time of `?t=`.

/** Whether a text can be a slug at all (what an address may carry before it is looked up). */
export function isSlug(text: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,118}[a-z0-9])?$/.test(text);
}

/**
 * `?t=`: a start time as `1h02m30s`, `62m`, `45s`, `3750` or `1:02:30`, in whole seconds; null when
 * unreadable, negative, or not before `duration` (when the duration is known).
 */
export function parseStartTime(text: string | null | undefined, duration = 0): number | null {
  if (text === null || text === undefined) return null;
  const value = text.trim().toLowerCase();
  if (value === '' || value.length > 20) return null;
  let seconds: number | null = null;
  const units = /^(?:(\d{1,3})h)?(?:(\d{1,4})m)?(?:(\d{1,6})s?)?$/.exec(value);
  if (/^\d{1,6}$/.test(value)) seconds = Number(value);
  else if (/^\d{1,3}(?::\d{1,2}){1,2}$/.test(value)) {
    seconds = value.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  } else if (units !== null && value !== '' && /[hm]|\d+s$/.test(value)) {
    seconds = Number(units[1] ?? 0) * 3600 + Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
  }
  if (seconds === null || !Number.isSafeInteger(seconds) || seconds < 0) return null;
  if (duration > 0 && seconds >= duration) return null;
  return seconds;
}

/** `?t=` as the share link writes it: `1h02m30s`, `12m34s`, `45s`. */
export function startTimeParam(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${String(h)}h${two(m)}m${two(s)}s`;
  if (m > 0) return `${String(m)}m${two(s)}s`;
  return `${String(s)}s`;
}

/**
 * Whether a text can be a played artist's slug (docs/artists.md): lower-case ascii words joined by
 * hyphens, 80 characters at most; anything else is no artist's page and is not asked for.
 */
export function isPlayedArtistSlug(text: string): boolean {
  return text.length <= 80 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(text);
}
