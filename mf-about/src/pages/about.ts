// mf-about's page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data. Its module exports it as `page`: the server
// reads it before rendering, the browser after every navigation.
import { siteConfig, type PageDefinition } from '@collectif/shared';
import { ABOUT_IMAGE_SIZES, preloadSrcSet } from '@collectif/shared/pictures';
import { organization } from '@collectif/shared/seo';
import about from '../../content/about.json';

export const page: PageDefinition = {
  // The page's largest paint: the intro image (src/about/ContentImage.tsx).
  preloads: () => [
    { href: about.intro.image.src, ...preloadSrcSet(about.intro.image.src, ABOUT_IMAGE_SIZES), fetchpriority: 'high' },
  ],
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
