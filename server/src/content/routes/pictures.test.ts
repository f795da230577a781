import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { ApiError } from '@collectif/shared';
import { buildApp } from '../../app/app';
import { readSiteServerConfig } from '../../settings/config';
import { invite } from '../accounts';
import type { Picture } from '../pictures';
import { softwareAuthenticator, type SoftwareAuthenticator } from '../testing/authenticator';
import { cameraJpeg, gif, png, pngBomb, svg } from '../testing/pictures';
import { testConfig } from '../../api/testing/fixtures';

// A picture's upload and its address (docs/content.md, « Pictures »), through the whole server:
// any signed-in editor uploads with the XSRF header, gets the WebP copies' addresses, and anyone
// gets them at /media, cached for a year; the refusals in French; nothing else under /media.

const ORIGIN = 'http://localhost:8080';
const TOKEN = 'jeton-admin-du-test';
const XSRF = { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' };
const AS_ADMIN = { ...XSRF, authorization: `Bearer ${TOKEN}` };
const MB = 1024 * 1024;

const distRoot = mkdtempSync(join(tmpdir(), 'images-site-'));
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApp({
    site: readSiteServerConfig({ DIST_ROOT: distRoot, RENDERERS: '0' }),
    api: testConfig({ adminToken: TOKEN, pictureMaxBytes: MB }),
  });
});

afterAll(async () => {
  await app.close();
  rmSync(distRoot, { recursive: true, force: true });
});

const upload = (payload: Buffer | string, purpose = 'cover', headers: InjectOptions['headers'] = AS_ADMIN) =>
  app.inject({
    method: 'POST',
    url: `/api/content/pictures?purpose=${purpose}`,
    headers: { 'content-type': 'application/octet-stream', ...headers },
    payload,
  });

/** A resident's session, from an invitation and a passkey in software. */
async function residentSession(): Promise<string> {
  const device: SoftwareAuthenticator = softwareAuthenticator();
  const { token } = await invite(app.content, { role: 'residence', residence: 'axonberg', by: 'camille' });
  const start = await app.inject({
    method: 'POST',
    url: '/api/editor/invitation/options',
    headers: XSRF,
    payload: { token, name: 'axonberg' },
  });
  const { ceremony, options } = start.json<{
    ceremony: string;
    options: Parameters<SoftwareAuthenticator['create']>[0];
  }>();
  const registered = await app.inject({
    method: 'POST',
    url: '/api/editor/invitation',
    headers: XSRF,
    payload: { ceremony, response: device.create(options, ORIGIN) },
  });
  expect(registered.statusCode).toBe(200);
  return String(registered.headers['set-cookie']).split(';')[0] ?? '';
}

describe('a picture uploaded', () => {
  it('by any signed-in editor: its copies’ addresses, each served as WebP for a year', async () => {
    const session = await residentSession();
    const res = await upload(await cameraJpeg(), 'portrait', { ...XSRF, cookie: `${XSRF.cookie}; ${session}` });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const picture = res.json<Picture>();
    expect(picture).toMatchObject({ width: 800, height: 800, widths: [400, 800] });
    expect(picture.src).toMatch(/^\/media\/[0-9a-f]{32}-800\.webp$/);

    for (const [address, width] of [
      [picture.src, 800],
      [picture.src.replace('-800.webp', '-400.webp'), 400],
    ] as const) {
      const served = await app.inject({ url: address });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const metadata = await sharp(served.rawPayload).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width, height: width });
      expect(metadata.exif).toBeUndefined();
    }
  });

  it('twice: the same picture, at the same address', async () => {
    const source = await png();
    const first = await upload(source);
    const second = await upload(source);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json<Picture>()).toEqual(first.json<Picture>());
  });

  it('is read from its bytes, whatever its Content-Type says, or without one', async () => {
    const res = await upload(await png(), 'team', { ...AS_ADMIN, 'content-type': 'application/json' });
    expect(res.statusCode).toBe(201);
    expect(res.json<Picture>().widths).toEqual([480]);
    const bare = await app.inject({
      method: 'POST',
      url: '/api/content/pictures?purpose=slide',
      headers: AS_ADMIN,
      payload: await png(),
    });
    expect(bare.statusCode).toBe(201);
  });
});

describe('a picture refused, in French', () => {
  const accepted = 'Images acceptées : JPEG, PNG, WebP ou AVIF, de 1 Mo et 50 mégapixels au plus.';

  it.each<[string, () => Buffer | Promise<Buffer>, number, string]>([
    ['a text file named .jpg', () => Buffer.from('Bonjour'), 415, 'Fichier refusé : ce n’est pas une image reconnue.'],
    ['a GIF', gif, 415, 'Image refusée : le format GIF n’est pas accepté.'],
    ['an SVG', svg, 415, 'Image refusée : le format SVG n’est pas accepté.'],
    [
      'over the cap',
      async () => Buffer.concat([await png(), Buffer.alloc(MB)]),
      413,
      'Image refusée : le fichier dépasse 1 Mo.',
    ],
    [
      'of 400 megapixels',
      pngBomb,
      413,
      'Image refusée : 20\u202f000 × 20\u202f000 pixels, c’est plus de 50 mégapixels.',
    ],
  ])('%s', async (_what, make, status, start) => {
    const res = await upload(await make());
    expect(res.statusCode).toBe(status);
    expect(res.json<ApiError>().message).toBe(`${start} ${accepted}`);
  });

  it('for an unknown purpose, or none', async () => {
    for (const purpose of ['avatar', '']) {
      const res = await upload(await png(), purpose);
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiError>().message).toBe(
        'Usage de l’image inconnu : purpose vaut portrait, header, team, cover, slide.',
      );
    }
  });

  it('signed out, or without the XSRF header', async () => {
    const source = await png(240, 160);
    const signedOut = await upload(source, 'cover', XSRF);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json<ApiError>().message).toBe('Connectez-vous pour modifier le contenu.');
    const forged = await upload(source, 'cover', { cookie: XSRF.cookie, authorization: AS_ADMIN.authorization });
    expect(forged.statusCode).toBe(403);
    expect(forged.json<ApiError>().error).toBe('xsrf');
  });
});

describe('/media', () => {
  it('serves pictures only: any other name, a path or a folder is unknown', async () => {
    const dir = app.pictures.dir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'secret');
    for (const address of [
      `/media/${'0'.repeat(32)}-600.webp`,
      '/media/notes.txt',
      '/media/..%2Fpictures%2Fnotes.txt',
      '/media/%2e%2e%2f%2e%2e%2fsettings.ts',
      '/media/..%5cnotes.txt',
      '/media/',
      '/media/x/../notes.txt',
    ]) {
      const res = await app.inject({ url: address });
      expect([address, res.statusCode]).toEqual([address, 404]);
      expect(res.body).not.toContain('secret');
    }
  });
});
