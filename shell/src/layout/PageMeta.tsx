import { DEFAULT_DESCRIPTION, usePageMeta } from '@collectif/shared';

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
