import Fastify from 'fastify';
import { etagOf, matchesEtag, sendConditional } from './conditional';

describe('conditional GET, one path for every representation', () => {
  it('names an ETag weak or strong, alone, in a list, or by *', () => {
    const etag = etagOf('corps');
    const bare = etag.slice(2);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(matchesEtag(etag, etag)).toBe(true);
    expect(matchesEtag(bare, etag)).toBe(true);
    expect(matchesEtag(`W/"autre", ${etag}`, etag)).toBe(true);
    expect(matchesEtag('*', etag)).toBe(true);
    expect(matchesEtag('W/"autre"', etag)).toBe(false);
    expect(matchesEtag(undefined, etag)).toBe(false);
  });

  it('answers the body with its validators, then 304 with the same headers and no body', async () => {
    const app = Fastify();
    const body = '<p>Page</p>';
    app.get('/page', (request, reply) =>
      sendConditional(
        request,
        reply,
        { etag: etagOf(body), cacheControl: 'public, max-age=60', headers: { 'X-Cache': 'HIT' } },
        { type: 'text/html; charset=utf-8', body },
      ),
    );
    const first = await app.inject({ url: '/page' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe(body);
    expect(first.headers).toMatchObject({
      etag: etagOf(body),
      'cache-control': 'public, max-age=60',
      'x-cache': 'HIT',
    });
    const again = await app.inject({ url: '/page', headers: { 'if-none-match': etagOf(body) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers).toMatchObject({
      etag: etagOf(body),
      'cache-control': 'public, max-age=60',
      'x-cache': 'HIT',
    });
    const changed = await app.inject({ url: '/page', headers: { 'if-none-match': etagOf('autre') } });
    expect(changed.statusCode).toBe(200);
    await app.close();
  });
});
