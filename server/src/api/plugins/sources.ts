import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import { NO_ARCHIVES } from '../../archive/episodes';
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import type { Release } from '@collectif/shared';
import type { ApiConfig } from '../env';
import { releasesContent } from '../schemas/releases';
import { createSources, type Sources } from '../sources';
import type { TracklistEntry } from '../../episodes/catalogue';
import type { SharedState } from '../../instances/shared-state';
import { repositorySeeds } from '../../content/kinds';
import { shareContent } from '../../content/shared';
import { createContentStore, type ContentStore } from '../../content/store';
import { createPictures, type Pictures } from '../../content/pictures';
import { playedArtistsSource, type PlayedArtistsSource } from '../../played-artists/current';
import { createMetrics, type Metrics } from '../../metrics/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** The /api configuration, read once at start-up. */
    apiConfig: ApiConfig;
    /** The clock of the caches, the demo rotation and the demo live stream. */
    clock: () => number;
    /** Where each answer's data comes from: the upstream adapters and their caches, or the demo. */
    sources: Sources;
    /** The label's releases as the repository has them, for the demo's tracks. */
    releases: readonly Release[];
    /** The content volunteers edit, current version by kind (docs/content.md). */
    content: ContentStore;
    /** The pictures editors upload, served at /media (docs/content.md, « Pictures »). */
    pictures: Pictures;
    /** The played artists' index of the moment (docs/artists.md). */
    playedArtists: PlayedArtistsSource;
    /** What the instances share through Redis (REDIS_URL), or null: this process alone. */
    shared: SharedState | null;
    /** The admins' metrics of this app (docs/deploy.md, « Metrics »), passed to what counts. */
    metrics: Metrics;
  }
}

/** Production passes only `config`; tests and the benchmark also set the clock and the demo's day. */
export interface SourcesOptions {
  config: ApiConfig;
  now?: () => number;
  /** Day the demo feed counts back from (default: today). */
  demoAnchor?: Date;
  shared?: SharedState | null;
  /** The app's metrics (app.ts makes them first, for its deploys); a registry of their own otherwise. */
  metrics?: Metrics;
}

/** The label's releases (server/content/releases.json, schema-checked at build and test time). */
export function loadReleases(file: string): Release[] {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!v.is(releasesContent, data)) throw new Error(`${file} : liste de sorties invalide (voir releases.schema.json)`);
  return data;
}

/**
 * Real mode: every upstream is configured, nothing is answered from the embedded demo. Otherwise
 * the demo's own routes (its audio, the admin live switch) exist (docs/server.md, « Layout »).
 */
export function isDemoMode(config: ApiConfig): boolean {
  return config.rss === null || config.soundcloud === null || config.twitch === null || config.azuracast === null;
}

const sources: FastifyPluginAsync<SourcesOptions> = async (
  app,
  { config, now = Date.now, demoAnchor, shared = null, metrics = createMetrics() },
) => {
  const releases = loadReleases(config.releasesFile);
  const content = createContentStore({ dir: config.contentDir, seeds: repositorySeeds() });
  const store = shared === null ? content : await shareContent(content, shared.content, app.log, config.siteSecret);
  const created = createSources(config, {
    releases,
    now,
    // The current version: the same object until a save, so the archive is built again only then.
    tracklists: () => store.current('tracklists') as { id: string; data: readonly TracklistEntry[] },
    // The live archives published (docs/archive.md), once their plugin is registered.
    archives: () => (app.hasDecorator('archives') ? app.archives.showing.shows : NO_ARCHIVES),
    ...(demoAnchor === undefined ? {} : { anchor: demoAnchor }),
    ...(shared === null ? {} : { shared: shared.cache }),
    metrics: metrics.site,
  });
  app.decorate('shared', shared);
  app.decorate('metrics', metrics);
  app.decorate('apiConfig', config);
  app.decorate('clock', now);
  app.decorate('releases', releases);
  app.decorate('content', store);
  app.decorate(
    'pictures',
    createPictures({
      dir: join(config.contentDir, 'pictures'),
      maxBytes: config.pictureMaxBytes,
      uploadsAtOnce: config.limits.pictureUploadsAtOnce,
      shared: shared?.pictures ?? null,
    }),
  );
  app.decorate('sources', created);
  app.decorate('playedArtists', playedArtistsSource(created.episodes, store));
  app.addHook('preClose', () => created.close());
  // Build the demo feed now (it reads the residences) so the first visitor does not wait for it.
  if (config.rss === null) await created.feed.get();
};

export const sourcesPlugin = fp(sources, { name: 'sources' });
