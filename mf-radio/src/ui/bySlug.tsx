import { useEffect } from 'react';
import { useParams } from '@collectif/shared';
import { StatusMessage, scrollToTop } from '@collectif/shared/ui';

/** What a page by slug reads of its query (RTK Query's result, for one thing by its slug). */
export interface SlugQuery<T> {
  data?: T;
  error?: unknown;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * The one thing a page shows by its address's slug (an episode, an event, an artist): the slug read,
 * checked, then asked for. `missing` when the slug cannot name one (no request is made) or the server
 * answers 404: the page's French « not found ». Each new slug starts at the top of the screen.
 */
export function useBySlug<T, Q extends SlugQuery<T>>(
  isSlug: (slug: string) => boolean,
  useQuery: (slug: string, options: { skip: boolean }) => Q,
): { query: Q; missing: boolean } {
  const { slug = '' } = useParams();
  const valid = isSlug(slug);
  const query = useQuery(slug, { skip: !valid });
  const error = query.error as { status?: unknown } | undefined;
  const missing = !valid || (error !== undefined && error.status === 404);
  useEffect(() => {
    scrollToTop();
  }, [slug]);
  return { query, missing };
}

/** While the thing is not there yet: its loading line, or why it cannot be shown and « Réessayer ». */
export function BySlugPending({
  query,
  unavailable,
  loading,
}: {
  query: Pick<SlugQuery<unknown>, 'isError' | 'refetch'>;
  /** « Cette émission est momentanément indisponible. » */
  unavailable: string;
  /** « Chargement de l'émission ... » */
  loading: string;
}) {
  return (
    <div className="page">
      {query.isError ? (
        <StatusMessage kind="error" onRetry={() => void query.refetch()}>
          {unavailable}
        </StatusMessage>
      ) : (
        <StatusMessage kind="loading">{loading}</StatusMessage>
      )}
    </div>
  );
}
