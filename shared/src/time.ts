/**
 * Time display (docs/site.md, « Times »): m:ss, or h:mm:ss from one hour; anything that is not a finite,
 * non-negative number of seconds shows 0:00.
 */
export function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${String(h)}:${String(m).padStart(2, '0')}:${ss}` : `${String(m)}:${ss}`;
}

/** Spoken form for assistive technology, e.g. "1 heure 2 minutes 5 secondes". */
export function speakTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0 seconde';
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts: string[] = [];
  if (h > 0) parts.push(`${String(h)} heure${h > 1 ? 's' : ''}`);
  if (m > 0) parts.push(`${String(m)} minute${m > 1 ? 's' : ''}`);
  if (s > 0 || parts.length === 0) parts.push(`${String(s)} seconde${s > 1 ? 's' : ''}`);
  return parts.join(' ');
}
