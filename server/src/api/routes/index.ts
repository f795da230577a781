import type { FastifyPluginAsync } from 'fastify';
import { errorsPlugin } from '../plugins/errors';
import { securityPlugin } from '../plugins/security';
import { isDemoMode } from '../plugins/sources';
import { playedPlugin } from '../plugins/played';
import adminLive from './admin-live';
import content from '../../content/routes/read';
import contentEdit from '../../content/routes/edit';
import contentPictures from '../../content/routes/pictures';
import { editorPlugin } from '../../content/routes/editor';
import demoAudio from './demo-audio';
import episodes from '../../episodes/routes';
import events from '../../events/routes';
import islive from './islive';
import nowplaying from './nowplaying';
import playedArtists from '../../played-artists/routes';
import podcasts from '../../feed/routes/podcasts';
import radio from './radio';
import reference from './reference';
import releases from './releases';
import schedule from '../../schedule/routes/programme';
import soundcloudRss from '../../feed/routes/soundcloud-rss';
import timeshift from '../../timeshift/routes';
import track from './track';
import xsrf from './xsrf';
import { figuresRoutes } from '../../figures/routes';
import { supportPlugin } from '../../support/routes';
import pushRoutes from '../../push/routes';
import proposalsRoutes from '../../proposals/routes';
import archiveRoutes from '../../archive/routes';

/**
 * The /api scope (app.ts registers it under that prefix): its security and error rules apply to
 * these routes only, not to the site's files. One plugin per resource; the demo's own routes only
 * in demo mode, so that in real mode they are unknown paths (docs/server.md, « Layout »).
 */
const apiRoutes: FastifyPluginAsync<{ siteOrigin: string; editorOrigin?: string | null }> = async (app, options) => {
  await app.register(securityPlugin, { siteOrigin: options.siteOrigin });
  await app.register(errorsPlugin);

  // The API described once, from the routes' own schemas (plugins/openapi.ts, docs/api.md).
  app.get('/openapi.json', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').send(app.swagger()),
  );
  // Its reference page for integrators, drawn from it by Scalar (docs/api.md, « The reference page »).
  await app.register(reference);
  await app.register(xsrf);
  // What the radio played: fed by the now-playing channel, read by the tracklists' prefill.
  await app.register(playedPlugin);
  await app.register(soundcloudRss);
  await app.register(podcasts);
  await app.register(episodes);
  await app.register(releases);
  await app.register(playedArtists);
  await app.register(content);
  // Volunteers' sign-in, then the content's writes and pictures, which ask it who writes.
  await app.register(editorPlugin, {
    siteOrigin: options.siteOrigin,
    editorOrigin: options.editorOrigin ?? null,
    ...app.apiConfig.editor,
  });
  await app.register(contentEdit);
  await app.register(contentPictures);
  await app.register(radio);
  await app.register(islive);
  await app.register(nowplaying);
  // The site's public origin, for the residence pages the calendar files link to.
  await app.register(schedule, { siteOrigin: options.siteOrigin });
  // The same origin, for the event pages the events' calendar files link to.
  await app.register(events, { siteOrigin: options.siteOrigin });
  await app.register(track);
  // The live's window and what played in it, for the player behind the edge (docs/timeshift.md).
  await app.register(timeshift);
  // Memberships and gifts through HelloAsso, or the demo's HelloAsso (docs/support.md).
  await app.register(supportPlugin, { siteOrigin: options.siteOrigin });
  // « Me prévenir »: a browser's subscription to notifications (docs/push.md).
  await app.register(pushRoutes);
  // « Proposer une émission » and « Envoyer une démo », and the volunteers' side (docs/proposals.md).
  await app.register(proposalsRoutes);
  // The live archives in the editor: the residences' choices, each archive's title, text and state (docs/archive.md).
  await app.register(archiveRoutes);

  // The audience figures: the player's beacons and the editor's reads (docs/figures.md).
  if (app.hasDecorator('figures')) await app.register(figuresRoutes);

  const config = app.apiConfig;
  if (isDemoMode(config)) {
    await app.register(demoAudio);
    if (config.adminToken !== null) await app.register(adminLive);
  }
};

export default apiRoutes;
