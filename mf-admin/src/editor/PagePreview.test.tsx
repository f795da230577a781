import userEvent from '@testing-library/user-event';
import { screen } from '@testing-library/react';
import { configureApiBase } from '@collectif/shared';
import { hrefOf, PAGES } from '@collectif/shared/addresses';
import { PREVIEW_CONTENT, PREVIEW_READY } from '@collectif/shared/preview';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { declaredPages, json, startFakeServer, type FakeServer } from '@collectif/shared/testing';
import { FRAME_SANDBOX, PagePreview } from './PagePreview';
import { setPublicOrigin } from './publicSite';

// The preview's frame and its messages (docs/content.md, « Preview »): the public page on the public
// origin, sandboxed; the content sent to that origin alone, and only that frame's messages of that
// origin heard.

const PUBLIC = 'https://www.example.org';
const releases = [
  { title: 'Nouvelle', artist: 'Artiste', href: 'https://label.example.org/nouvelle', image: '/a.webp' },
];

let api: FakeServer;

beforeEach(async () => {
  api = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    routes: { '/api/content/releases/preview': json({ data: releases }) },
  });
  configureApiBase(`${api.origin}/api`);
});

afterEach(async () => {
  setPublicOrigin(null);
  await api.close();
});

/** Opens the preview of the releases; the frame, and a spy on what is posted to it. */
async function openPreview() {
  renderWithProviders(<PagePreview source={{ kind: 'releases', data: releases }} onRefused={() => undefined} />);
  await userEvent.click(screen.getByRole('button', { name: 'Voir l’aperçu de la page' }));
  const frame = await screen.findByTitle<HTMLIFrameElement>('Aperçu de la page du label');
  const inside = frame.contentWindow;
  if (inside === null) throw new Error('le cadre n’a pas de fenêtre');
  const posted = jest.spyOn(inside, 'postMessage').mockImplementation(() => undefined);
  return { frame, inside, posted };
}

/** A message as the browser hands it to the editor's window. */
const arrive = (origin: string, source: Window | null, data: unknown = { type: PREVIEW_READY }) => {
  window.dispatchEvent(new MessageEvent('message', { origin, source, data }));
};

const labelPath = hrefOf(declaredPages())(PAGES.label) ?? '';

describe('the preview, the editor on an origin of its own', () => {
  beforeEach(() => {
    setPublicOrigin(PUBLIC);
  });

  it('frames the public page on the public origin, sandboxed', async () => {
    const { frame } = await openPreview();
    expect(labelPath).not.toBe('');
    expect(frame.getAttribute('src')).toBe(`${PUBLIC}${labelPath}`);
    expect(frame.getAttribute('sandbox')).toBe(FRAME_SANDBOX);
    expect(FRAME_SANDBOX.split(' ').sort()).toEqual([
      'allow-forms',
      'allow-popups',
      'allow-same-origin',
      'allow-scripts',
    ]);
  });

  it('answers the frame’s « ready » with the content, sent to the public origin alone', async () => {
    const { inside, posted } = await openPreview();
    arrive(PUBLIC, inside);
    expect(posted).toHaveBeenCalledTimes(1);
    expect(posted).toHaveBeenCalledWith({ type: PREVIEW_CONTENT, kind: 'releases', data: releases }, PUBLIC);
  });

  it('hears no other origin, not even its own, and no other window', async () => {
    const { inside, posted } = await openPreview();
    arrive('https://ailleurs.example.net', inside);
    arrive(window.location.origin, inside);
    arrive(PUBLIC, window);
    arrive(PUBLIC, null);
    arrive(PUBLIC, inside, { type: 'autre' });
    expect(posted).not.toHaveBeenCalled();
  });
});

describe('the preview, the editor a part of the public site', () => {
  it('frames the page at its path on its own origin, and talks to that origin alone', async () => {
    const { frame, inside, posted } = await openPreview();
    expect(frame.getAttribute('src')).toBe(labelPath);
    expect(frame.getAttribute('sandbox')).toBe(FRAME_SANDBOX);
    arrive(PUBLIC, inside);
    expect(posted).not.toHaveBeenCalled();
    arrive(window.location.origin, inside);
    expect(posted).toHaveBeenCalledWith(
      { type: PREVIEW_CONTENT, kind: 'releases', data: releases },
      window.location.origin,
    );
  });
});
