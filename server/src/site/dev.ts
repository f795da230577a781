import httpProxy from '@fastify/http-proxy';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import type { DevRemote } from '../settings/config';

/**
 * `npm run dev`: each remote being worked on is served by its webpack dev server, through this
 * server's port under `/_dev/<folder>/` (files, hot updates and the hot-reload socket). The page
 * then loads every part from its own origin, whatever host name it was opened at, and the dev
 * servers listen on the loopback with their host checks on (docs/parts.md, « Development »).
 *
 * The dev servers refuse what another site's page asks of them (a script tag or a socket from a
 * foreign origin could read the source being worked on); their proxy refuses it the same way, since
 * what reaches them through it always looks like their own origin.
 */
const devRemotesPlugin: FastifyPluginAsync<{ remotes: DevRemote[] }> = async (app, { remotes }) => {
  for (const remote of remotes) {
    await app.register(httpProxy, {
      upstream: remote.upstream,
      prefix: remote.prefix,
      // The dev server knows its address on the site (shared/build/webpack.mjs, devServer).
      rewritePrefix: remote.prefix,
      websocket: true,
      preHandler: (request, reply, done) => {
        if (request.headers['sec-fetch-site'] === 'cross-site') {
          void reply
            .code(403)
            .send({ error: 'cross_site', message: 'Fichiers de développement refusés à un autre site' });
          return;
        }
        done();
      },
      wsServerOptions: {
        // The socket only for a page of this origin.
        verifyClient: ({ origin, req }: { origin?: string; req: { headers: { host?: string } } }) => {
          try {
            return origin !== undefined && new URL(origin).host === req.headers.host;
          } catch {
            return false;
          }
        },
      },
      // What the dev server checks: a socket opened by its own origin.
      wsClientOptions: { origin: remote.upstream },
    });
  }
};

export const devRemotes = fp(devRemotesPlugin, { name: 'dev-remotes' });
