import { StatusMessage, type AnswerStatus } from '@collectif/shared/ui';

/** What a page that needs the residences shows while they load, or when they cannot be had. */
export function ResidencesStatus({ status, retry }: { status: AnswerStatus; retry: () => void }) {
  if (status === 'error') {
    return (
      <StatusMessage kind="error" onRetry={retry}>
        Les résidences sont momentanément indisponibles. Réessayez dans un instant.
      </StatusMessage>
    );
  }
  if (status === 'empty') return <StatusMessage kind="empty">Aucune résidence pour le moment.</StatusMessage>;
  return <StatusMessage kind="loading">Chargement des résidences ...</StatusMessage>;
}
