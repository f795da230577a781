import { useEffect, useState, type ReactNode } from 'react';
import { StatusMessage } from '@collectif/shared/ui';
import { call, messageOf } from './call';

/*
 * One source of « Mes chiffres » read, the same way for each (docs/content.md, « Mes chiffres »):
 * asked on its own, so that one that fails leaves the others shown; its answer read defensively
 * (it is input); while it loads, or once it failed with « Réessayer », what to show in its place.
 */

export type FiguresRead<T> = { figures: T; status: null } | { figures: null; status: ReactNode };

/** The figures at `path` (below /api), read by `read` (a module's function: asked again when it changes). */
export function useFigures<T>(path: string, read: (data: unknown) => T, loading: string): FiguresRead<T> {
  const [figures, setFigures] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    call<unknown>('GET', path)
      .then(read)
      .then((value) => {
        if (current) setFigures(value);
      })
      .catch((error: unknown) => {
        if (current) setFailure(messageOf(error));
      });
    return () => {
      current = false;
    };
  }, [path, read, attempt]);
  if (failure !== null) {
    return {
      figures: null,
      status: (
        <StatusMessage
          kind="error"
          onRetry={() => {
            setFailure(null);
            setAttempt((attempts) => attempts + 1);
          }}
        >
          {failure}
        </StatusMessage>
      ),
    };
  }
  if (figures === null) return { figures: null, status: <StatusMessage kind="loading">{loading}</StatusMessage> };
  return { figures, status: null };
}
