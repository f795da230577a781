import {
  closedOrigin,
  silent,
  startFakeServer,
  text,
  type FakeRoute,
  type FakeServer,
  until,
  serverContainer,
} from '@collectif/shared/testing';
import React from 'react';
import * as shared from '@collectif/shared';
import type { PartName, RemotesConfig } from '@collectif/shared';
import { createServerContainers } from './containers';
import { loadContainer } from './federation';
import { partFileSource } from './part-files';
import { createSitePages } from '../page-routes';

const DIST = {
  shell: '/dist/shell',
  player: '/dist/player',
  radio: '/dist/radio',
  label: '/dist/label',
  about: '/dist/about',
} as Record<PartName, string>;

const remotesAt = (origin: string): RemotesConfig => ({
  player: '/mf-player/mf-manifest.json',
  radio: `${origin}/radio/mf-manifest.json`,
  label: '/mf-label/mf-manifest.json',
  about: 'pas-une-adresse',
  admin: 'pas-une-adresse',
});

/** Answers a bundle with an ETag, and 304 when the client has it. */
const withEtag =
  (body: string, etag: string): FakeRoute =>
  (request, response) => {
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/javascript', etag });
    response.end(body);
  };

let server: FakeServer;
const warnings: string[] = [];
const warn = (message: string) => warnings.push(message);

beforeEach(async () => {
  warnings.length = 0;
  server = await startFakeServer();
});

afterEach(() => server.close());

describe('where a part’s server files are', () => {
  it('beside the manifest the remote map names: this server’s files, another origin, or nowhere', () => {
    const remotes = remotesAt('https://cdn.example.org');
    expect(partFileSource('shell', 'server/remoteEntry.js', remotes, DIST)).toEqual({
      file: '/dist/shell/server/remoteEntry.js',
    });
    expect(partFileSource('player', 'server/remoteEntry.js', remotes, DIST)).toEqual({
      file: '/dist/player/server/remoteEntry.js',
    });
    expect(partFileSource('radio', 'pages.json', remotes, DIST)).toEqual({
      url: 'https://cdn.example.org/radio/pages.json',
    });
    expect(partFileSource('about', 'pages.json', remotes, DIST)).toBeNull();
  });
});

/** A radio container whose home page says which version it is. */
const versionOne = serverContainer("exports.modules = { HomePage: () => 'version 1' };");
const versionTwo = serverContainer("exports.modules = { HomePage: () => 'version 2' };");
const homeOf = async (containers: ReturnType<typeof createServerContainers>) =>
  ((await containers.get('radio'))?.modules as Record<string, () => string> | undefined)?.HomePage?.();

describe('a server container on another origin', () => {
  it('is fetched once, then revalidated with its ETag, and a new version replaces it', async () => {
    // Every fetch the containers start, to wait for the last one's answer before the fake server closes.
    const fetches = jest.spyOn(globalThis, 'fetch');
    try {
      server.on('/radio/server/remoteEntry.js', withEtag(versionOne, '"v1"'));
      // Stale at once: every read revalidates in the background.
      const containers = createServerContainers({
        remotes: remotesAt(server.origin),
        distDirs: DIST,
        refreshMs: -1,
        warn,
      });
      /**
       * Reads until the fake server has received request `count`: a read starts a revalidation once
       * the one before has ended (one at a time), and none is started once that request is there.
       */
      const readUntilRequest = (count: number) =>
        until(
          async () => {
            if (server.requests.length >= count) return true;
            await containers.get('radio');
            return false;
          },
          { what: `la requête ${String(count)} au serveur du bundle` },
        );
      const validators = () => server.requests.map((request) => request.headers['if-none-match'] ?? null);

      expect(await homeOf(containers)).toBe('version 1');
      // The next read answers with what it has and revalidates in the background (304).
      expect(await homeOf(containers)).toBe('version 1');
      await until(() => server.requests.length >= 2, { what: 'la revalidation en arrière-plan' });
      expect(validators()).toEqual([null, '"v1"']);

      server.on('/radio/server/remoteEntry.js', withEtag(versionTwo, '"v2"'));
      await readUntilRequest(3);
      await until(() => containers.versions().includes('radio:"v2"'), { what: 'la version 2 en service' });
      expect(await homeOf(containers)).toBe('version 2');
      expect(containers.versions()).toContain('radio:"v2"');
      // Version 2 is revalidated with its own ETag (304), and that says nothing. Its fetch settled,
      // what the containers do with the answer is done too: they were waiting on it before this test.
      await readUntilRequest(4);
      await Promise.allSettled(fetches.mock.results.map((result) => result.value as Promise<Response>));
      expect(validators()).toEqual([null, '"v1"', '"v1"', '"v2"']);
      expect(warnings).toEqual([]);
    } finally {
      fetches.mockRestore();
    }
  });

  it('that is unreachable, slow or broken leaves the part to the browser, and says why', async () => {
    const closed = createServerContainers({ remotes: remotesAt(await closedOrigin()), distDirs: DIST, warn });
    expect(await closed.get('radio')).toBeNull();

    server.on('/radio/server/remoteEntry.js', silent);
    const slow = createServerContainers({
      remotes: remotesAt(server.origin),
      distDirs: DIST,
      fetchTimeoutMs: 100,
      warn,
    });
    expect(await slow.get('radio')).toBeNull();

    server.on('/radio/server/remoteEntry.js', text('throw new Error("cassé");', 200, 'text/javascript'));
    const broken = createServerContainers({ remotes: remotesAt(server.origin), distDirs: DIST, warn });
    expect(await broken.get('radio')).toBeNull();
    expect(warnings).toEqual([
      expect.stringMatching(/^Conteneur serveur de « radio » injoignable/),
      expect.stringMatching(/^Conteneur serveur de « radio » injoignable .*(timeout|aborted)/i),
      expect.stringMatching(
        /^Conteneur serveur de « radio » inutilisable \(http:\/\/127\.0\.0\.1:\d+\/radio\/server\/remoteEntry\.js\) : cassé$/,
      ),
    ]);
  });
});

describe('loadContainer', () => {
  it('gives a container this renderer’s React and shared package as singletons, and Node’s builtins alone as require', async () => {
    const shell = await loadContainer(
      serverContainer(
        "exports.renderApp = () => null; exports.react = require('react'); exports.shared = require('@collectif/shared');",
      ),
      'remoteEntry.js',
      'shell',
    );
    expect(shell.react).toBe(React);
    expect(shell.shared).toBe(shared);
    await expect(
      loadContainer(serverContainer("exports.renderApp = require('left-pad');"), 'remoteEntry.js', 'shell'),
    ).rejects.toThrow(/module « left-pad » absent du serveur/);
  });

  it('gets each module a remote exposes, with its page definition', async () => {
    const radio = await loadContainer(
      serverContainer(
        "exports.modules = { HomePage: () => 'accueil' }; exports.definitions = { HomePage: { title: 'Accueil' } };",
      ),
      'remoteEntry.js',
      'radio',
    );
    expect(Object.keys(radio.modules as object)).toEqual(['HomePage']);
    expect(radio.definitions).toEqual({ HomePage: { title: 'Accueil' } });
  });
});

describe('the pages a remote on another origin declares', () => {
  it('that failed are asked again by the next request, which gets them once the origin answers', async () => {
    const declared = [{ path: 'emissions', module: 'HomePage', title: 'Émissions', area: 'a' }];
    server.on('/radio/pages.json', text('compilation en cours', 503));
    const pages = createSitePages({ remotes: remotesAt(server.origin), distDirs: DIST, warn });
    expect(await pages()).toMatchObject({ pages: [], complete: false });
    // The origin answers now (a dev server done compiling, a CDN back): the very next read has them,
    // not one after the revalidation delay (30 s).
    server.on('/radio/pages.json', text(JSON.stringify(declared)));
    expect(await pages()).toMatchObject({ pages: [{ ...declared[0], remote: 'radio' }] });
    expect(server.count('/radio/pages.json')).toBe(2);
  });

  it('that hang after a failure do not hold a request for the whole fetch', async () => {
    server.on('/radio/pages.json', text('indisponible', 503));
    const pages = createSitePages({
      remotes: remotesAt(server.origin),
      distDirs: DIST,
      fetchTimeoutMs: 60_000,
      missingWaitMs: 50,
      // Its own: the held fetch fails when the fake server closes, after this test.
      warn: () => undefined,
    });
    await pages();
    server.on('/radio/pages.json', silent);
    // The origin holds the new attempt (its fetch may take a minute): the request is answered with
    // the site without radio meanwhile, while that fetch is still on its way.
    expect((await pages()).complete).toBe(false);
    expect(server.count('/radio/pages.json')).toBe(2);
  });

  it('are read beside its manifest; a refused file leaves it without pages, with the field named', async () => {
    server.on(
      '/radio/pages.json',
      text(JSON.stringify([{ path: 'emissions', module: 'HomePage', title: 'Émissions', area: 'a' }])),
    );
    const pages = createSitePages({ remotes: remotesAt(server.origin), distDirs: DIST, warn });
    expect((await pages()).pages).toEqual([
      { path: 'emissions', module: 'HomePage', title: 'Émissions', area: 'a', remote: 'radio' },
    ]);

    server.on('/radio/pages.json', text(JSON.stringify([{ path: '../x', module: 'HomePage', title: 'x', area: 'a' }])));
    const refused = createSitePages({ remotes: remotesAt(server.origin), distDirs: DIST, warn });
    expect((await refused()).pages).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^Pages déclarées de « radio » inutilisable \(.*pages\.json\) : .*0\.path : chemin de page invalide/,
      ),
    ]);
  });
});
