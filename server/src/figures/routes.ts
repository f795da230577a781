import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { FIGURES_BEACON_MAX_BYTES, beaconSchema } from '@collectif/shared/schemas';
import { ApiHttpError } from '../http/errors';
import { jsonSchema, type ValibotJsonTypeProvider } from '../api/schemas/provider';
import { visitorOf } from './plugin';
import { audienceReport, monthCsv, type ReportEpisode } from './report';

const RESIDENCE = /^[a-z0-9-]{1,64}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A peer on the loopback: 127.0.0.0/8, ::1, or IPv4 on the loopback as IPv6 writes it. */
const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
/**
 * The figures' routes under /api (docs/figures.md, « For the parts »): the player's beacon, the
 * timeline's requests as nginx mirrors them, and the editor's reads.
 */
export const figuresRoutes: FastifyPluginCallback = (app, _options, done) => {
  const { figures } = app;
  const { beaconsPerMinute } = app.apiConfig.figures;

  // A beacon comes from navigator.sendBeacon, which sends no custom header: no XSRF token. It is
  // bounded otherwise: a rate per address, a small body, a strict schema, and it only ever adds
  // one to counts (docs/figures.md, « The beacon »). Its JSON comes as text/plain (sendBeacon's
  // type): read as JSON in this plugin's context only, then checked by the route's body schema.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, parsed) => {
    try {
      parsed(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
    } catch {
      parsed(null, undefined);
    }
  });
  app.withTypeProvider<ValibotJsonTypeProvider>().post(
    '/figures/beacon',
    {
      bodyLimit: FIGURES_BEACON_MAX_BYTES,
      config: { xsrf: false, rateLimit: { max: beaconsPerMinute, timeWindow: 60_000 } },
      schema: { body: jsonSchema(beaconSchema) },
      validatorCompiler: () => (value: unknown) => {
        const read = v.safeParse(beaconSchema, value);
        if (read.success) return { value: read.output };
        app.metrics.figures.counted.inc({ what: 'refused' });
        return { error: new ApiHttpError(400, 'bad_beacon', 'Signal d’écoute invalide : il est ignoré.') };
      },
    },
    async (request, reply) => {
      await figures.beacon(visitorOf(request), request.body);
      return reply.code(204).header('Cache-Control', 'no-store').send();
    },
  );

  // Behind nginx, the timeline's playlists leave from nginx, which mirrors each request here
  // (deploy/nginx.conf, docs/figures.md): the listener is present, nothing is answered.
  app.get(
    '/figures/timeline',
    { config: { caller: 'loopback', rateLimit: { max: 60, timeWindow: 60_000 } } },
    async (request, reply) => {
      // Only nginx's mirror, on the loopback, may say a listener is there: nginx refuses this
      // address to every client (deploy/nginx.conf), and a peer elsewhere is refused here.
      const peer = request.socket.remoteAddress ?? '';
      if (!LOOPBACK.test(peer)) {
        throw new ApiHttpError(403, 'forbidden', 'Adresse réservée au miroir du serveur web.');
      }
      await figures.timeline(visitorOf(request));
      return reply.code(204).header('Cache-Control', 'no-store').send();
    },
  );

  /** The residence a request may read: a resident their own, an admin any or the whole radio (null). */
  const readable = async (request: FastifyRequest<{ Querystring: { residence?: string } }>) => {
    const editor = await app.editorOf(request);
    const asked = request.query.residence;
    if (asked !== undefined && !RESIDENCE.test(asked)) {
      throw new ApiHttpError(400, 'bad_request', 'residence : identifiant de résidence invalide.');
    }
    if (editor.role === 'admin') return asked ?? null;
    if (
      editor.role === 'residence' &&
      editor.residence !== undefined &&
      (asked ?? editor.residence) === editor.residence
    ) {
      return editor.residence;
    }
    throw new ApiHttpError(403, 'forbidden', 'Ces chiffres ne sont pas ceux de votre résidence.');
  };

  const reportInput = async () => {
    const catalogue = (await app.sources.episodes.get()).value;
    const episodes: ReportEpisode[] = catalogue.episodes.map((episode) => ({
      slug: episode.slug,
      title: `${episode.artist} — ${episode.show}`,
      residences: episode.residences,
    }));
    const names = new Map(app.sources.residences.map((residence) => [residence.id, residence.show]));
    return {
      episodes,
      nameOf: (residence: string) => names.get(residence) ?? residence,
      day: async (day: string) => figures.day(day),
    };
  };

  app.get<{ Querystring: { residence?: string } }>(
    '/editor/figures/audience',
    { config: { editor: true } },
    async (request, reply) => {
      const residence = await readable(request);
      await figures.flush();
      const report = await audienceReport({ residence, now: app.clock(), ...(await reportInput()) });
      return reply.header('Cache-Control', 'private, no-store').send(report);
    },
  );

  app.get<{ Querystring: { residence?: string; month?: string } }>(
    '/editor/figures/audience.csv',
    { config: { editor: true } },
    async (request, reply) => {
      const residence = await readable(request);
      const month = request.query.month ?? new Date(app.clock()).toISOString().slice(0, 7);
      if (!MONTH.test(month)) throw new ApiHttpError(400, 'bad_request', 'month : un mois AAAA-MM est attendu.');
      await figures.flush();
      const csv = await monthCsv({ residence, month, ...(await reportInput()) });
      return reply
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `attachment; filename="chiffres-${residence ?? 'radio'}-${month}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(csv);
    },
  );
  done();
};
