/** Which of its four states a block that lists an /api answer shows. */
export type AnswerStatus = 'ready' | 'loading' | 'error' | 'empty';

/**
 * One order for every block (docs/api.md): items already read are shown, even while a refresh runs
 * or after it failed; otherwise a request under way is « Chargement … », a failed one (or an answer
 * that did not fit its schema) the French error with « Réessayer », and an empty list the empty text.
 */
export function answerStatus(query: {
  data?: readonly unknown[] | undefined;
  isError: boolean;
  isFetching: boolean;
}): AnswerStatus {
  if (query.data !== undefined && query.data.length > 0) return 'ready';
  if (query.isFetching) return 'loading';
  if (query.isError) return 'error';
  return query.data === undefined ? 'loading' : 'empty';
}
