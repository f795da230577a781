// Reference build only (bench): the same pages imported as ordinary lazy chunks of one bundle,
// in place of shell/src/federation/remotes.ts. Measures what federation costs.
import type { ComponentType } from 'react';
import type { RemoteModuleRef, RemotesConfig } from '@collectif/shared';

type Loader = () => Promise<{ default: ComponentType }>;

const loaders: Record<string, Loader> = {
  'player/Player': () => import('../../mf-player/src/exposed/Player'),
  'radio/HomePage': () => import('../../mf-radio/src/exposed/HomePage'),
  'radio/ProgrammePage': () => import('../../mf-radio/src/exposed/ProgrammePage'),
  'radio/ResidencesPage': () => import('../../mf-radio/src/exposed/ResidencesPage'),
  'radio/ResidencePage': () => import('../../mf-radio/src/exposed/ResidencePage'),
  'radio/EpisodesPage': () => import('../../mf-radio/src/exposed/EpisodesPage'),
  'radio/EpisodePage': () => import('../../mf-radio/src/exposed/EpisodePage'),
  'radio/EmbedPage': () => import('../../mf-radio/src/exposed/EmbedPage'),
  'label/LabelPage': () => import('../../mf-label/src/exposed/LabelPage'),
  'about/AboutPage': () => import('../../mf-about/src/exposed/AboutPage'),
  'admin/AdminPage': () => import('../../mf-admin/src/exposed/AdminPage'),
  'admin/InvitationPage': () => import('../../mf-admin/src/exposed/InvitationPage'),
};

export function readRemotesConfig(): Promise<RemotesConfig> {
  return Promise.resolve({ player: '', radio: '', label: '', about: '', admin: '' });
}

export function registerFromConfig(): void {
  // Nothing to register: every page is part of this bundle.
}

export function resetRemote(): void {
  // Nothing to forget: a page that failed to load is imported again on the next attempt.
}

export function loadRemoteModule({ remote, module }: RemoteModuleRef): Promise<{ default: ComponentType }> {
  const loader = loaders[`${remote}/${module}`];
  if (loader === undefined) return Promise.reject(new Error(`${remote}/${module} inconnu`));
  return loader();
}
