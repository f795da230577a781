import type { ComponentType } from 'react';

/**
 * What each remote exposes: its whole public API. The remote checks its modules against these
 * types with `satisfies`; the shell loads them through the same types.
 */
export type PageComponent = ComponentType;

export interface RemoteContract {
  player: { Player: ComponentType };
  radio: { HomePage: PageComponent; ResidencesPage: PageComponent; ResidencePage: PageComponent };
  label: { LabelPage: PageComponent };
  about: { AboutPage: PageComponent };
}

export type RemoteName = keyof RemoteContract;

export const REMOTE_NAMES = ['player', 'radio', 'label', 'about'] as const satisfies readonly RemoteName[];

/** The module an exposed name resolves to: its default export is the component. */
export type ExposedModule<R extends RemoteName, M extends keyof RemoteContract[R]> = {
  default: RemoteContract[R][M];
};

/** Runtime remote configuration served as JSON: remote name to manifest URL. */
export type RemotesConfig = Record<RemoteName, string>;

/** The federation name of each remote's container. */
export const federationName = (remote: RemoteName): string => `collectif_${remote}`;
