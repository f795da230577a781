import type { FastifyInstance } from 'fastify';
import { readRadioSettings } from '../settings/radio';
import { buildApi, listen, testConfig } from './testing/fixtures';

const radio = readRadioSettings({
  LIVE_STREAM_URL: 'https://icecast.example.net/direct.mp3',
  CHAT_ROOM: 'salon-du-soir',
  TWITCH_CHANNEL: 'autre_chaine',
});

describe('GET /api/radio (the settings of the player on partner sites)', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApi({ config: testConfig({ radio }) });
  });
  afterAll(() => app.close());

  it('answers the settings read at start-up, cacheable, with an ETag and CORS', async () => {
    const res = await app.inject({ url: '/api/radio' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(radio);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toMatch(/^(public|private), max-age=60$/);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await app.inject({ url: '/api/radio', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
  });

  it('carries the renditions and the timeline (contract 3.2), the timeline off at LIVE_TIMESHIFT_HOURS=0', async () => {
    expect((await app.inject({ url: '/api/radio' })).json()).toMatchObject({
      renditions: [
        { id: 'normale', label: 'Normale', url: 'https://icecast.example.net/direct.mp3', bitrate: 128, codec: 'mp3' },
      ],
      timeshift: { playlist: '/direct/live.m3u8', hours: 4 },
    });
    const off = await buildApi({ config: testConfig({ radio: readRadioSettings({ LIVE_TIMESHIFT_HOURS: '0' }) }) });
    try {
      const answer = (await off.inject({ url: '/api/radio' })).json<Record<string, unknown>>();
      expect(answer.timeshift).toEqual({ playlist: '', hours: 0 });
      expect(answer.renditions).toEqual([
        { id: 'normale', label: 'Normale', url: '/api/demo/live.mp3', bitrate: 128, codec: 'mp3' },
        { id: 'econome', label: 'Économe', url: '/api/demo/live-econome.mp3', bitrate: 48, codec: 'mp3' },
      ]);
    } finally {
      await off.close();
    }
  });

  it('is read by a partner page on another origin', async () => {
    const origin = await listen(app);
    const response = await fetch(`${origin}/api/radio`, { headers: { origin: 'https://partenaire.example.org' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual(radio);
  });
});
