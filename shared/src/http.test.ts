import { readCookie, sendWithXsrf, withXsrf, xsrfCookieName } from './http';

describe('withXsrf', () => {
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=jeton%20secret';
  });

  it('adds the header to a POST on the same origin', () => {
    const r = withXsrf(new Request('http://localhost/api/demo/live', { method: 'POST' }), 'http://localhost');
    expect(r.headers.get('X-XSRF-TOKEN')).toBe('jeton secret');
  });

  it('leaves GET requests and other origins alone', () => {
    expect(withXsrf(new Request('http://localhost/api/x'), 'http://localhost').headers.has('X-XSRF-TOKEN')).toBe(false);
    const other = withXsrf(new Request('https://example.org/x', { method: 'POST' }), 'http://localhost');
    expect(other.headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('names the cookie `__Host-` over https, where no sibling host can set it', () => {
    expect(xsrfCookieName(true)).toBe('__Host-XSRF-TOKEN');
    expect(xsrfCookieName(false)).toBe('XSRF-TOKEN');
  });

  it('reads a cookie among others', () => {
    expect(readCookie('b', 'a=1; b=2=3; c=4')).toBe('2=3');
    expect(readCookie('z', 'a=1')).toBeNull();
  });
});

describe('sendWithXsrf', () => {
  const ORIGIN = 'http://localhost';
  const TOKEN_URL = '/api/xsrf';

  /** The site as a browser meets it: its cookie jar (document.cookie) and its answers. */
  function site(answers: { keepsCookies?: boolean; refuse?: number } = {}) {
    const sent: { method: string; url: string; header: string | null; body: string }[] = [];
    let refusals = answers.refuse ?? 0;
    let issued = 0;
    const send = async (request: Request): Promise<Response> => {
      sent.push({
        method: request.method,
        url: new URL(request.url).pathname,
        header: request.headers.get('X-XSRF-TOKEN'),
        body: await request.text(),
      });
      if (new URL(request.url).pathname === TOKEN_URL) {
        issued += 1;
        if (answers.keepsCookies !== false) document.cookie = `XSRF-TOKEN=jeton-${String(issued)}`;
        return new Response(null, { status: 204 });
      }
      if (request.headers.get('X-XSRF-TOKEN') === null || refusals > 0) {
        refusals -= 1;
        return Response.json({ error: 'xsrf', message: 'Jeton XSRF invalide : réessayez.' }, { status: 403 });
      }
      return Response.json({ ok: true });
    };
    return { sent, send };
  }
  const write = () =>
    new Request(`${ORIGIN}/api/editor/invitation/options`, { method: 'POST', body: '{"name":"Zoé"}' });

  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it('asks for a cookie before the first write of a browser that has none', async () => {
    const { sent, send } = site();
    const response = await sendWithXsrf(write(), TOKEN_URL, send, ORIGIN);
    expect(response.status).toBe(200);
    expect(sent.map((r) => [r.method, r.url, r.header])).toEqual([
      ['GET', '/api/xsrf', null],
      ['POST', '/api/editor/invitation/options', 'jeton-1'],
    ]);
  });

  it('uses the cookie it has, and sends a refused write once more with a fresh one, body and all', async () => {
    document.cookie = 'XSRF-TOKEN=ancien';
    const { sent, send } = site({ refuse: 1 });
    const response = await sendWithXsrf(write(), TOKEN_URL, send, ORIGIN);
    expect(response.status).toBe(200);
    expect(sent.map((r) => [r.method, r.header, r.body])).toEqual([
      ['POST', 'ancien', '{"name":"Zoé"}'],
      ['GET', null, ''],
      ['POST', 'jeton-1', '{"name":"Zoé"}'],
    ]);
  });

  it('tries once more only: a second refusal is the answer', async () => {
    document.cookie = 'XSRF-TOKEN=ancien';
    const { sent, send } = site({ refuse: 5 });
    const response = await sendWithXsrf(write(), TOKEN_URL, send, ORIGIN);
    expect(response.status).toBe(403);
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('gives the refusal when the browser keeps no cookie', async () => {
    const { sent, send } = site({ keepsCookies: false });
    const response = await sendWithXsrf(write(), TOKEN_URL, send, ORIGIN);
    expect(response.status).toBe(403);
    expect(sent.map((r) => [r.method, r.header])).toEqual([
      ['GET', null],
      ['POST', null],
      ['GET', null],
      ['POST', null],
    ]);
  });

  it('sends reads and other origins’ requests as they are, with no token asked', async () => {
    const { sent, send } = site();
    await sendWithXsrf(new Request(`${ORIGIN}/api/podcasts`), TOKEN_URL, send, ORIGIN);
    await sendWithXsrf(new Request('https://example.org/api/x', { method: 'POST' }), TOKEN_URL, send, ORIGIN);
    expect(sent.map((r) => [r.url, r.header])).toEqual([
      ['/api/podcasts', null],
      ['/api/x', null],
    ]);
  });

  it('does not retry a refusal for another reason', async () => {
    document.cookie = 'XSRF-TOKEN=ancien';
    let calls = 0;
    const send = (): Promise<Response> => {
      calls += 1;
      return Promise.resolve(Response.json({ error: 'forbidden', message: 'Non.' }, { status: 403 }));
    };
    const response = await sendWithXsrf(write(), TOKEN_URL, send, ORIGIN);
    expect(response.status).toBe(403);
    expect(calls).toBe(1);
  });
});
