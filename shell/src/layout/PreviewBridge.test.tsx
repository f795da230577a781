import { act, screen } from '@testing-library/react';
import { api } from '@collectif/shared';
import { PREVIEW_CONFIG_ID, PREVIEW_CONTENT, PREVIEW_READY, previewParentOrigins } from '@collectif/shared/preview';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { announceInteractive } from '../boot/interactive';
import { PreviewBridge } from './PreviewBridge';

// The public page's half of the preview (docs/content.md, « Preview »): in a frame whose parent is
// the site's own origin or the editor's (which the server writes into the page), it says it is ready
// and takes the content; from a parent of any other origin, nothing.

const EDITOR = 'https://edition.example.org';
const OWN = window.location.origin;
const BANNER = 'Aperçu : cette page montre vos modifications, qui ne sont pas encore publiées.';
const releases = [{ title: 'En aperçu', artist: 'Artiste', href: '/album/en-apercu', image: '/a.webp' }];

let parent: Window;
let zones = 0;
/** The page's own `parent`, put back after each test. */
const ownParent = Object.getOwnPropertyDescriptor(window, 'parent');
const restoreParent = () => {
  if (ownParent === undefined) Reflect.deleteProperty(window, 'parent');
  else Object.defineProperty(window, 'parent', ownParent);
};

beforeEach(() => {
  // The page in a frame: its parent, a window of its own (an iframe's, so that it can be a message's source).
  const holder = document.createElement('iframe');
  document.body.append(holder);
  if (holder.contentWindow === null) throw new Error('pas de fenêtre');
  parent = holder.contentWindow;
  Object.defineProperty(window, 'parent', { configurable: true, get: () => parent });
});

afterEach(() => {
  restoreParent();
  document.getElementById(PREVIEW_CONFIG_ID)?.remove();
  document.querySelectorAll('iframe').forEach((frame) => {
    frame.remove();
  });
  jest.restoreAllMocks();
});

/** The server's word on the editor's origin, in the page. */
function editorOriginInPage(json: string) {
  document.head.insertAdjacentHTML(
    'beforeend',
    `<script type="application/json" id="${PREVIEW_CONFIG_ID}">${json}</script>`,
  );
}

/** The bridge on a page whose area becomes interactive; what it says to its parent. */
function renderBridge() {
  const posted = jest.spyOn(parent, 'postMessage').mockImplementation(() => undefined);
  zones += 1;
  const zone = `page-${String(zones)}`;
  const rendered = renderWithProviders(<PreviewBridge zone={zone} />);
  act(() => {
    announceInteractive(zone);
  });
  return { posted, ...rendered };
}

/** A message as the browser hands it to the page's window. */
const arrive = (origin: string, source: Window | null) => {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', {
        origin,
        source,
        data: { type: PREVIEW_CONTENT, kind: 'releases', data: releases },
      }),
    );
  });
};

const shown = (store: ReturnType<typeof renderBridge>['store']) =>
  api.endpoints.releases.select({})(store.getState()).data;

describe('the preview in a public page', () => {
  it('takes the editor’s content from a parent of the editor’s origin, and says ready to it', async () => {
    editorOriginInPage(JSON.stringify({ editorOrigin: EDITOR }));
    const { posted, store } = renderBridge();
    // Named for each origin an editor may have: the browser delivers it to the parent of that origin only.
    expect(posted.mock.calls).toEqual([
      [{ type: PREVIEW_READY }, OWN],
      [{ type: PREVIEW_READY }, EDITOR],
    ]);
    arrive(EDITOR, parent);
    expect(await screen.findByRole('status')).toHaveTextContent(BANNER);
    expect(shown(store)).toEqual(releases);
  });

  it('still takes it from a parent of the site’s own origin', async () => {
    editorOriginInPage(JSON.stringify({ editorOrigin: EDITOR }));
    renderBridge();
    arrive(OWN, parent);
    expect(await screen.findByRole('status')).toHaveTextContent(BANNER);
  });

  it('ignores a parent of another origin, and a window that is not its parent', async () => {
    editorOriginInPage(JSON.stringify({ editorOrigin: EDITOR }));
    const { store } = renderBridge();
    arrive('https://ailleurs.example.net', parent);
    arrive(EDITOR, window);
    arrive(EDITOR, null);
    // Any answer would have been applied by now (the store's upsert is a microtask).
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByText(BANNER)).not.toBeInTheDocument();
    expect(shown(store)).toBeUndefined();
  });

  it('hears its own origin alone when the page names no editor', async () => {
    const { posted, store } = renderBridge();
    expect(posted.mock.calls).toEqual([[{ type: PREVIEW_READY }, OWN]]);
    arrive(EDITOR, parent);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(shown(store)).toBeUndefined();
  });

  it('listens to nothing outside a frame', () => {
    restoreParent();
    expect(window.parent).toBe(window);
    const posted = jest.spyOn(window, 'postMessage');
    renderWithProviders(<PreviewBridge zone="page-hors-cadre" />);
    act(() => {
      announceInteractive('page-hors-cadre');
    });
    expect(posted).not.toHaveBeenCalled();
  });
});

describe('the origins a page takes a preview from', () => {
  it('are its own, and the editor’s when the server names a valid one', () => {
    const read = (json: string | null) => {
      document.getElementById(PREVIEW_CONFIG_ID)?.remove();
      if (json !== null) editorOriginInPage(json);
      return previewParentOrigins(document, OWN);
    };
    const warned = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(read(null)).toEqual([OWN]);
    expect(read(JSON.stringify({ editorOrigin: EDITOR }))).toEqual([OWN, EDITOR]);
    expect(read(JSON.stringify({ editorOrigin: null }))).toEqual([OWN]);
    expect(read(JSON.stringify({ editorOrigin: OWN }))).toEqual([OWN]);
    expect(warned).not.toHaveBeenCalled();
    for (const wrong of ['*', 'null', `${EDITOR}/`, 'edition.example.org', 'javascript:alert(1)']) {
      expect(read(JSON.stringify({ editorOrigin: wrong }))).toEqual([OWN]);
    }
    expect(read('{ pas du json')).toEqual([OWN]);
    expect(warned).toHaveBeenCalledTimes(6);
  });
});
