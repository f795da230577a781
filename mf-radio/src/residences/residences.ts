import { api, useResidencesQuery, type AppDispatch, type Residence, type RootState } from '@collectif/shared';
import { answerStatus, type AnswerStatus } from '@collectif/shared/ui';

/*
 * The resident shows, read at run time from the site's content (GET /api/content/residences,
 * docs/content.md): volunteers edit them, and the next page shows the change with no rebuild. Pages
 * load them with their other data (`loadResidences` in a page's `load`), so the server renders
 * them and the browser finds them in the page's state.
 */

/** The page's query for the residences (one cache entry for every page of the part). */
export const loadResidences = (dispatch: AppDispatch) => dispatch(api.endpoints.residences.initiate(undefined));

/** The residences as loaded into a store; none while they are not. */
export const selectResidences = (state: RootState): readonly Residence[] =>
  api.endpoints.residences.select(undefined)(state).data ?? [];

/** Whether the residences could not be had (the page then says so, not « introuvable »). */
export const residencesFailed = (state: RootState): boolean =>
  api.endpoints.residences.select(undefined)(state).isError;

/** The residences for a component, with whether they are there yet. */
export function useResidences(): { residences: readonly Residence[]; status: AnswerStatus; retry: () => void } {
  const query = useResidencesQuery(undefined);
  return {
    residences: query.data ?? [],
    status: answerStatus(query),
    retry: () => {
      void query.refetch();
    },
  };
}

/** Ids are matched exactly first (e.g. '130E0A'), then without case, so a retyped address still works. */
export function findResidence(id: string, list: readonly Residence[]): Residence | undefined {
  return list.find((r) => r.id === id) ?? list.find((r) => r.id.toLowerCase() === id.toLowerCase());
}

/** Style tags worth showing: the content sometimes carries empty strings (and a tag once is enough). */
export function visibleStyles(styles: readonly string[]): string[] {
  return [...new Set(styles.map((s) => s.trim()).filter((s) => s !== ''))];
}
