import { usePageMeta } from '@collectif/shared';

const DEFAULT_DESCRIPTION = "Web radio, replays, résidences, label et évènements d'un collectif de Toulouse.";

export function PageMeta({
  title,
  description = DEFAULT_DESCRIPTION,
}: {
  title: string;
  description?: string | undefined;
}) {
  usePageMeta(title, description);
  return null;
}
