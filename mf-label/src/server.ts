// mf-label's server bundle (docs/rendering.md): its pages' modules and, from each module, its
// definition (data and head). Built into dist/server/ssr.js and deployed with the part.
import type { RemoteServerBundle, ServerPage } from '@collectif/shared/server';
import LabelPage, { page as label } from './exposed/LabelPage';

export const modules = { LabelPage } satisfies RemoteServerBundle['modules'];

export const pages = { LabelPage: label } satisfies Record<keyof typeof modules, ServerPage>;
