// mf-about's server bundle (docs/rendering.md): the About page and its head.
import { siteConfig } from '@collectif/shared';
import type { RemoteServerBundle, ServerPage } from '@collectif/shared/server';
import { organization } from '@collectif/shared/seo';
import about from '../content/about.json';
import AboutPage from './exposed/AboutPage';

const page: ServerPage = {
  head: ({ origin }) => ({
    image: { url: new URL(about.intro.image.src, origin).href, alt: about.intro.image.alt },
    jsonLd: [
      organization({
        name: siteConfig.name,
        url: new URL('/', origin).href,
        logo: new URL('/assets/images/logo.svg', origin).href,
        email: siteConfig.emails.contact,
        sameAs: [siteConfig.links.instagram, siteConfig.links.soundcloud, siteConfig.links.bandcamp],
        address: siteConfig.studio.address,
        foundingDate: String(siteConfig.stats.created),
      }),
    ],
  }),
};

export const modules = { AboutPage } satisfies RemoteServerBundle['modules'];

export const pages = { AboutPage: page } satisfies Record<keyof typeof modules, ServerPage>;
