/** Decorative icons; every control that shows one carries its own French accessible name. */
const common = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  'aria-hidden': true,
  focusable: false,
} as const;

export function PlayIcon() {
  return (
    <svg {...common}>
      <path
        fill="currentColor"
        d="M8 5.14v13.72a1 1 0 0 0 1.5.86l11-6.86a1 1 0 0 0 0-1.72l-11-6.86A1 1 0 0 0 8 5.14Z"
      />
    </svg>
  );
}

export function PauseIcon() {
  return (
    <svg {...common}>
      <path fill="currentColor" d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" />
    </svg>
  );
}

export function ChatIcon() {
  return (
    <svg {...common}>
      <path
        fill="currentColor"
        d="M4 4h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H9.4l-4.7 3.6A.5.5 0 0 1 4 20.2V17a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1Zm3 5v2h10V9Zm0 3.5v2h6v-2Z"
      />
    </svg>
  );
}

export function CollapseIcon() {
  return (
    <svg {...common}>
      <path fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" d="m6 9 6 6 6-6" />
    </svg>
  );
}

export function CloseIcon() {
  return (
    <svg {...common}>
      <path fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}
