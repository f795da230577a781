// Inline icons: no icon font, no extra request. Decorative unless the caller labels the control.
const common = { width: 24, height: 24, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;

export function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
      {open ? <path d="M5 5l14 14M19 5L5 19" /> : <path d="M3 6h18M3 12h18M3 18h18" />}
    </svg>
  );
}

export function BackIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M15 18l-6-6 6-6" />
    </svg>
  );
}

export function InstagramIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth="2">
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.5" cy="6.5" r="1" fill="currentColor" />
    </svg>
  );
}

export function SoundCloudIcon() {
  return (
    <svg {...common} fill="currentColor">
      <path d="M11 8.5v8h7.5a3 3 0 0 0 .3-6 4.8 4.8 0 0 0-7.8-2zM9 9.5h1v7H9zM7 10.5h1v6H7zM5 11.5h1v5H5zM3 12.5h1v4H3z" />
    </svg>
  );
}

export function BandcampIcon() {
  return (
    <svg {...common} fill="currentColor">
      <path d="M2 18L8 6h14l-6 12z" />
    </svg>
  );
}

export function LinkListIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M8 6h13M8 12h13M8 18h13" />
      <circle cx="4" cy="6" r="1" fill="currentColor" />
      <circle cx="4" cy="12" r="1" fill="currentColor" />
      <circle cx="4" cy="18" r="1" fill="currentColor" />
    </svg>
  );
}

export function Logo({ title }: { title: string }) {
  return (
    <svg className="logo" width="150" height="40" viewBox="0 0 150 40" role="img" aria-label={title}>
      <circle cx="20" cy="20" r="17" fill="none" stroke="currentColor" strokeWidth="4" />
      <circle cx="20" cy="20" r="6" fill="currentColor" />
      {/* The display font, which every page loads, not a system one: the same logo on every device. */}
      <text x="44" y="27" fill="currentColor" className="logo__text" fontSize="19">
        GARONNE
      </text>
    </svg>
  );
}
