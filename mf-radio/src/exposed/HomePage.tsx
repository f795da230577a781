import { siteConfig, type PageRoute, type RemoteContract } from '@collectif/shared';
import { Carousel } from '../home/Carousel';
import { PodcastsBlock } from '../home/PodcastsBlock';
import { ReleasesBlock } from '../home/ReleasesBlock';
import { ScheduleBlock } from '../home/ScheduleBlock';
import { slides } from '../home/slides';
import { LiveBlock } from '../live/LiveBlock';
import '../styles/home.css';

/** Home, blocks in their order (docs/site.md, « Home »): carousel, live, schedule, podcasts, releases. */
function HomePage() {
  return (
    <div className="page home">
      <h1 className="visually-hidden">{siteConfig.name}</h1>
      <Carousel slides={slides} />
      <LiveBlock />
      <ScheduleBlock />
      <PodcastsBlock />
      <ReleasesBlock />
    </div>
  );
}

export default HomePage satisfies RemoteContract['radio']['HomePage'];

/** Its data and head, read alike by the server and the browser. */
export { home as page } from '../pages/home';

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = { path: '', title: 'Accueil', area: "La page d'accueil" };
