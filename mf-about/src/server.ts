// mf-about's server bundle (docs/rendering.md): its pages' modules and, from each module, its
// definition (data and head). Built into dist/server/ssr.js and deployed with the part.
import type { RemoteServerBundle, ServerPage } from '@collectif/shared/server';
import AboutPage, { page as page } from './exposed/AboutPage';

export const modules = { AboutPage } satisfies RemoteServerBundle['modules'];

export const pages = { AboutPage: page } satisfies Record<keyof typeof modules, ServerPage>;
