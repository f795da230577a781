import { readCookie, withXsrf } from './http';

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

  it('reads a cookie among others', () => {
    expect(readCookie('b', 'a=1; b=2=3; c=4')).toBe('2=3');
    expect(readCookie('z', 'a=1')).toBeNull();
  });
});
