import { startFakeUpstream, silent, text, type FakeUpstream } from '../api/testing/fake-upstream';
import { UpstreamError } from '../http/errors';
import { ensureOk, fetchUpstream, jsonBody } from './fetch';

let fake: FakeUpstream;
const limits = { timeoutMs: 300, maxBytes: 1000 };

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());

describe('fetchUpstream', () => {
  it('returns the status, headers and body', async () => {
    fake.on('/ok', text(200, 'bonjour', 'text/plain'));
    const response = await fetchUpstream('feed', { url: `${fake.url}/ok` }, limits);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.body.toString()).toBe('bonjour');
  });

  it('returns non-2xx statuses for the caller to judge, and ensureOk turns them into errors', async () => {
    fake.on('/broken', text(500, 'oops', 'text/plain'));
    const response = await fetchUpstream('feed', { url: `${fake.url}/broken` }, limits);
    expect(response.status).toBe(500);
    expect(() => ensureOk('feed', response)).toThrow(UpstreamError);
    expect(() => ensureOk('feed', response)).toThrow('feed: status (HTTP 500)');
  });

  it('cuts a body larger than the limit, announced or not', async () => {
    fake.on('/announced', text(200, 'x'.repeat(5000)));
    fake.on('/chunked', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 50; i += 1) response.write('y'.repeat(100));
      response.end();
    });
    await expect(fetchUpstream('feed', { url: `${fake.url}/announced` }, limits)).rejects.toMatchObject({
      failure: 'too_large',
    });
    await expect(fetchUpstream('feed', { url: `${fake.url}/chunked` }, limits)).rejects.toMatchObject({
      failure: 'too_large',
    });
  });

  it('gives up on an upstream that does not answer in time', async () => {
    fake.on('/silent', silent);
    await expect(fetchUpstream('twitch', { url: `${fake.url}/silent` }, limits)).rejects.toMatchObject({
      service: 'twitch',
      failure: 'timeout',
    });
  });

  it('gives up on a body that stalls after the headers', async () => {
    fake.on('/stall', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('début');
    });
    await expect(fetchUpstream('feed', { url: `${fake.url}/stall` }, limits)).rejects.toMatchObject({
      failure: 'timeout',
    });
  });

  it('reports an unreachable upstream', async () => {
    await expect(fetchUpstream('azuracast', { url: 'http://127.0.0.1:1/' }, limits)).rejects.toMatchObject({
      failure: 'unreachable',
    });
  });

  it('sends the method, headers and body it is given', async () => {
    fake.on('/post', text(200, '{"a":1}', 'application/json'));
    const response = await fetchUpstream(
      'soundcloud',
      { url: `${fake.url}/post`, method: 'POST', headers: { 'X-Test': 'oui' }, body: 'a=1' },
      limits,
    );
    expect(jsonBody('soundcloud', response)).toEqual({ a: 1 });
    const sent = fake.requests.find((r) => r.path === '/post');
    expect(sent).toMatchObject({ method: 'POST', body: 'a=1' });
    expect(sent?.headers['x-test']).toBe('oui');
  });

  it('says when a JSON body is not JSON', async () => {
    fake.on('/html', text(200, '<html>', 'text/html'));
    const response = await fetchUpstream('twitch', { url: `${fake.url}/html` }, limits);
    expect(() => jsonBody('twitch', response)).toThrow(UpstreamError);
  });
});
