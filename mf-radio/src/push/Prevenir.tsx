import { lazy, Suspense, type ComponentType } from 'react';
import { useHydrated } from '../ui/useHydrated';

/*
 * « Me prévenir » (docs/follow.md, « Me prévenir »), where a page shows it: beside « Suivre » and in
 * « Mes résidences ». Its code is a chunk of its own (« prevenir »), asked for once the page is shown:
 * not in the server's page (without the page's script it could do nothing), not in the pages' chunks
 * (the residence page's first screen keeps its bytes and its requests), and nothing on a first visit
 * of `/`. A chunk that cannot be had shows no button.
 */

interface PrevenirProps {
  id: string;
  artist: string;
  /** In a list: « Me prévenir : <artist> », one name per residence. */
  named?: boolean;
}

const PushToggle = lazy(
  (): Promise<{ default: ComponentType<PrevenirProps> }> =>
    import(/* webpackChunkName: "prevenir" */ './PushToggle').catch(() => ({ default: () => null })),
);

export function Prevenir(props: PrevenirProps) {
  const hydrated = useHydrated();
  return hydrated ? (
    <Suspense fallback={null}>
      <PushToggle {...props} />
    </Suspense>
  ) : null;
}
