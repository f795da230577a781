import type { ReactNode } from 'react';

interface StatusMessageProps {
  kind: 'loading' | 'error' | 'empty';
  children: ReactNode;
  onRetry?: () => void;
}

/** The French loading, error and empty states every block shows instead of a blank area. */
export function StatusMessage({ kind, children, onRetry }: StatusMessageProps) {
  return (
    <div className={`status status--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {kind === 'loading' ? <span className="spinner" aria-hidden="true" /> : null}
      <p>{children}</p>
      {onRetry === undefined ? null : (
        <button type="button" className="button" onClick={onRetry}>
          Réessayer
        </button>
      )}
    </div>
  );
}
