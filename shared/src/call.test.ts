import { configureApiBase } from '@collectif/shared';
import { UNREACHABLE, callApi } from '@collectif/shared/call';

/** The site's answers to one write, with an XSRF cookie already held. */
const answering = (response: () => Response) => {
  const sent: { method: string; path: string; type: string | null; body: string }[] = [];
  const send = async (request: Request): Promise<Response> => {
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      type: request.headers.get('content-type'),
      body: await request.text(),
    });
    return response();
  };
  return { sent, send };
};

describe('callApi', () => {
  beforeEach(() => {
    configureApiBase(`${globalThis.location.origin}/api`);
    document.cookie = 'XSRF-TOKEN=jeton';
  });

  it('sends JSON to /api and gives the answer read', async () => {
    const { sent, send } = answering(() => Response.json({ id: 'axonberg' }, { status: 201 }));
    expect(await callApi('POST', '/content/residences', { name: 'Axonberg' }, { send })).toEqual({
      ok: true,
      status: 201,
      data: { id: 'axonberg' },
    });
    expect(sent).toEqual([
      { method: 'POST', path: '/api/content/residences', type: 'application/json', body: '{"name":"Axonberg"}' },
    ]);
  });

  it('sends bytes as they are, with their type', async () => {
    const { sent, send } = answering(() => Response.json({ src: '/images/a.webp' }, { status: 201 }));
    const bytes = new TextEncoder().encode('GIF89a').buffer;
    expect(await callApi('POST', '/content/pictures', bytes, { type: 'image/gif', send })).toMatchObject({ ok: true });
    expect(sent).toEqual([{ method: 'POST', path: '/api/content/pictures', type: 'image/gif', body: 'GIF89a' }]);
  });

  it('gives a 204 as no data', async () => {
    const { send } = answering(() => new Response(null, { status: 204 }));
    expect(await callApi('DELETE', '/content/residences/axonberg', undefined, { send })).toEqual({
      ok: true,
      status: 204,
      data: undefined,
    });
  });

  it('keeps the site’s own words for a refusal', async () => {
    const { send } = answering(() =>
      Response.json({ error: 'conflict', message: 'Cette résidence existe déjà.' }, { status: 409 }),
    );
    expect(await callApi('POST', '/content/residences', {}, { send })).toMatchObject({
      ok: false,
      status: 409,
      code: 'conflict',
      message: 'Cette résidence existe déjà.',
    });
  });

  it('says the HTTP status of a refusal without words (an HTML error page, a proxy’s)', async () => {
    const { send } = answering(() => new Response('<h1>Bad Gateway</h1>', { status: 502 }));
    expect(await callApi('POST', '/support/don', {}, { send })).toMatchObject({
      ok: false,
      status: 502,
      code: 'error',
      message: 'Le site a refusé la demande (HTTP 502).',
      data: null,
    });
  });

  it('says the site is out of reach instead of rejecting', async () => {
    const send = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await callApi('POST', '/support/don', {}, { send })).toEqual({
      ok: false,
      status: 0,
      code: 'network',
      message: UNREACHABLE,
      data: null,
    });
  });
});
