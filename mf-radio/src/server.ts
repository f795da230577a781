// mf-radio's server bundle (docs/rendering.md): its pages' modules and, from each module, its
// definition (data and head). Built into dist/server/ssr.js and deployed with the part.
import type { RemoteServerBundle, ServerPage } from '@collectif/shared/server';
import HomePage, { page as home } from './exposed/HomePage';
import ResidencesPage, { page as list } from './exposed/ResidencesPage';
import ResidencePage, { page as residence } from './exposed/ResidencePage';
import EpisodesPage, { page as archive } from './exposed/EpisodesPage';
import EpisodePage, { page as episodePage } from './exposed/EpisodePage';

export const modules = {
  HomePage,
  ResidencesPage,
  ResidencePage,
  EpisodesPage,
  EpisodePage,
} satisfies RemoteServerBundle['modules'];

export const pages = {
  HomePage: home,
  ResidencesPage: list,
  ResidencePage: residence,
  EpisodesPage: archive,
  EpisodePage: episodePage,
} satisfies Record<keyof typeof modules, ServerPage>;
