import {
  api,
  useResidenceQuery,
  useResidenceSummariesQuery,
  useResidencesQuery,
  type AppDispatch,
  type Residence,
  type ResidenceSummary,
  type RootState,
} from '@collectif/shared';
import { answerStatus, type AnswerStatus } from '@collectif/shared/ui';

/*
 * The resident shows, read at run time from the site's content (GET /api/content/residences,
 * docs/content.md): volunteers edit them, and the next page shows the change with no rebuild. Pages
 * load them with their other data (in a page's `load`), so the server renders them and the browser
 * finds them in the page's state. Each page asks for what it shows, no more, since that state is
 * in its HTML (docs/first-screen.md, « The first screen's budget »): the pages that list residences
 * their summaries (no description, no links), a residence's page that residence alone, and only the
 * player's configurator the whole list.
 */

/** Every residence whole (the player's configurator: each one's links). */
export const loadResidences = (dispatch: AppDispatch) => dispatch(api.endpoints.residences.initiate(undefined));

/** A list of residences for a component, with whether it is there yet. */
interface ListRead<T> {
  residences: readonly T[];
  status: AnswerStatus;
  retry: () => void;
}

function listRead<T>(query: {
  data?: T[] | undefined;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}): ListRead<T> {
  return {
    residences: query.data ?? [],
    status: answerStatus(query),
    retry: () => {
      void query.refetch();
    },
  };
}

export const useResidences = (): ListRead<Residence> => listRead(useResidencesQuery(undefined));

/** The residences as a list shows them (one cache entry for every page of the part). */
export const loadResidenceSummaries = (dispatch: AppDispatch) =>
  dispatch(api.endpoints.residenceSummaries.initiate(undefined));

/** The residences' summaries as loaded into a store; none while they are not. */
export const selectResidenceSummaries = (state: RootState): readonly ResidenceSummary[] =>
  api.endpoints.residenceSummaries.select(undefined)(state).data ?? [];

export const useResidenceSummaries = (): ListRead<ResidenceSummary> => listRead(useResidenceSummariesQuery(undefined));

/** The residence an address names (its id, whatever its case). */
export const loadResidence = (id: string, dispatch: AppDispatch) => dispatch(api.endpoints.residence.initiate(id));

/**
 * That residence in a store: the residence, `null` when none has that id, `undefined` while it is not
 * there; and whether it could not be had (the page then says so, not « introuvable »).
 */
export function selectResidence(
  id: string,
  state: RootState,
): { residence: Residence | null | undefined; failed: boolean } {
  const query = api.endpoints.residence.select(id)(state);
  return { residence: query.data, failed: query.isError };
}

/** That residence for a component: `ready`, `empty` (no residence has that id), `loading` or `error`. */
export function useResidence(id: string): {
  residence: Residence | null | undefined;
  status: AnswerStatus;
  retry: () => void;
} {
  const query = useResidenceQuery(id);
  const data = query.data;
  return {
    residence: data,
    status: answerStatus({ ...query, data: data === undefined ? undefined : data === null ? [] : [data] }),
    retry: () => {
      void query.refetch();
    },
  };
}

export { findResidence } from '@collectif/shared/addresses';

/** Style tags worth showing: the content sometimes carries empty strings (and a tag once is enough). */
export function visibleStyles(styles: readonly string[]): string[] {
  return [...new Set(styles.map((s) => s.trim()).filter((s) => s !== ''))];
}
