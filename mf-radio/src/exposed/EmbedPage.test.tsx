import { declaredHref } from '@collectif/shared/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { renderWithProviders } from '@collectif/shared/test-utils';
import {
  api as apiSlice,
  apiUrl,
  makeStore,
  RADIO_SETTINGS_ID,
  radioSettings,
  resetRadioSettings,
  siteConfig,
  type AppStore,
  type Episode,
} from '@collectif/shared';
import {
  EMBED_EPISODES_HEIGHT,
  EMBED_HEIGHT_MESSAGE,
  EMBED_HEIGHTS,
  EMBED_TIMELINE_HEIGHTS,
} from '@collectif/shared/embed';
import { podcast, startFakeApi, type FakeApi } from '../testing/fakeApi';
import { COPIED, COPY_REFUSED } from '../embed/CodeBlock';
import { configuratorSearchFor, readConfigurator } from '../embed/configurator';
import { COLOUR_DEBOUNCE_MS, NO_TIMELINE_NOTE, TIMELINE_NOTE } from '../embed/EmbedForm';
import { page as integrer } from './EmbedPage';
import EmbedPage from './EmbedPage';

const ORIGIN = 'https://radio.example.org';

function episode(n: number, artist: string, show: string): Episode {
  return {
    ...podcast(n, artist, show),
    slug: `${artist}-${String(n)}`.toLowerCase().replace(/ /g, '-'),
    residences: [],
    styles: [],
  };
}

const EPISODES = [
  episode(1, 'Axonberg', 'Synapses #11'),
  episode(2, 'Axonberg', 'Synapses #10'),
  episode(3, 'La Brume', 'Nappes du Matin #4'),
];

let api: FakeApi;

beforeEach(async () => {
  api = await startFakeApi({
    '/episodes': (url) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const items = EPISODES.filter((item) => `${item.artist} ${item.show}`.toLowerCase().includes(q));
      return { body: { items, total: items.length, page: 1, pages: 1, pageSize: 24 } };
    },
  });
  for (const item of EPISODES) api.set(`/episodes/${item.slug}`, () => ({ body: item }));
});

afterEach(async () => {
  await api.close();
  Reflect.deleteProperty(navigator, 'clipboard');
  document.head.innerHTML = '';
  resetRadioSettings();
});

/** The radio's settings as the server writes them in the page (#radio-config), read again. */
function radioKeeps(hours: number): void {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = RADIO_SETTINGS_ID;
  script.textContent = JSON.stringify({
    ...radioSettings(),
    timeshift: { playlist: hours > 0 ? '/direct/live.m3u8' : '', hours },
  });
  document.head.append(script);
  resetRadioSettings();
}

/** The address the page is at, beside it. */
function Address() {
  const { pathname, search } = useLocation();
  return <output data-testid="adresse">{`${pathname}${search}`}</output>;
}

function renderPage(route = '/integrer') {
  return renderWithProviders(
    <>
      <EmbedPage />
      <Address />
    </>,
    { route },
  );
}

const address = () => screen.getByTestId('adresse').textContent;
const frame = () => screen.getByTitle(/^Lecteur Collectif Garonne/);
const code = (label: RegExp | string) => screen.getByRole<HTMLTextAreaElement>('textbox', { name: label }).value;
const scriptCode = () => code('Le code du lecteur (script)');
const frameCode = () => code('Le code du lecteur (iframe)');

describe('EmbedPage', () => {
  it('opens on the live stream, dark, as a bar, with the code for a script and for an iframe', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Intégrer le lecteur' })).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Options du lecteur' });
    expect(within(form).getByRole('group', { name: 'Ce que joue le lecteur' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Le direct/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Sombre' })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Barre/ })).toBeChecked();
    expect(frame()).toHaveAttribute('src', '/embed/lecteur');
    expect(frame()).toHaveAttribute('height', String(EMBED_HEIGHTS.barre));
    // Rendered in jsdom, whose page is at http://localhost (no canonical address written).
    expect(scriptCode()).toBe(
      '<script src="http://localhost/embed/collectif-player.js" defer></script>\n' +
        '<collectif-player api-base="http://localhost/api"></collectif-player>',
    );
    expect(frameCode()).toContain(
      '<iframe src="http://localhost/embed/lecteur" title="Lecteur Collectif Garonne : le direct"',
    );
    const listener = code('Pour que l’iframe prenne la hauteur du lecteur');
    expect(listener).toContain('event.origin !== "http://localhost"');
    expect(listener).toContain('"collectif-player:hauteur"');
    const script = screen.getByRole('region', { name: 'Avec un script' });
    expect(within(script).getByRole<HTMLTextAreaElement>('textbox', { name: /Content-Security-Policy/ }).value).toBe(
      [
        'script-src http://localhost;',
        'connect-src http://localhost https:;',
        'media-src http://localhost https: blob:;',
        'img-src http://localhost https:;',
        'worker-src blob:;',
      ].join('\n'),
    );
    const iframe = screen.getByRole('region', { name: 'Avec une iframe' });
    expect(within(iframe).getByRole<HTMLTextAreaElement>('textbox', { name: /Content-Security-Policy/ }).value).toBe(
      'frame-src http://localhost;',
    );
    expect(address()).toBe('/integrer');
    // An integrator who writes their own player is pointed to the API's reference and description.
    expect(screen.getByRole('link', { name: '/api/openapi.json' })).toHaveAttribute('href', '/api/openapi.json');
    expect(screen.getByRole('link', { name: 'référence de l’API' })).toHaveAttribute('href', '/api/docs');
  });

  it('follows each choice in its address, its preview and its code', async () => {
    renderPage();
    // The residences arrive from the site's content (the server's page has them already).
    await screen.findByRole('option', { name: /^Axonberg · /, hidden: true });
    fireEvent.click(screen.getByRole('radio', { name: /Une résidence/ }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Résidence' }), { target: { value: 'axonberg' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Clair' }));
    fireEvent.click(screen.getByRole('radio', { name: /Carte/ }));
    await waitFor(() => {
      expect(address()).toBe('/integrer?residence=axonberg&theme=clair&format=carte');
    });
    expect(screen.getByRole('radio', { name: /Une résidence/ })).toBeChecked();
    expect(frame()).toHaveAttribute('src', '/embed/lecteur?residence=axonberg&theme=clair&format=carte');
    // A residence's card, with its latest episodes under it.
    const card = String(EMBED_HEIGHTS.carte + EMBED_EPISODES_HEIGHT);
    expect(frame()).toHaveAttribute('height', card);
    expect(frame()).toHaveAttribute('title', 'Lecteur Collectif Garonne : une résidence');
    // Below the choices on a phone: loaded when the visitor comes near it, not with the first screen.
    expect(frame()).toHaveAttribute('loading', 'lazy');
    expect(scriptCode()).toContain(
      '<collectif-player api-base="http://localhost/api" residence="axonberg" theme="clair" format="carte">',
    );
    expect(frameCode()).toContain(`height="${card}"`);

    // Back to the live stream: the residence is left out, the rest stays.
    fireEvent.click(screen.getByRole('radio', { name: /Le direct/ }));
    await waitFor(() => {
      expect(address()).toBe('/integrer?theme=clair&format=carte');
    });
    // The residence chosen before is chosen again.
    fireEvent.click(screen.getByRole('radio', { name: /Une résidence/ }));
    await waitFor(() => {
      expect(address()).toBe('/integrer?residence=axonberg&theme=clair&format=carte');
    });
  });

  it('gives the preview the height its player tells, from its own frame only', () => {
    renderPage('/integrer?format=carte');
    const told = (height: unknown, source: Window | null, origin = window.location.origin) => {
      act(() => {
        window.dispatchEvent(
          new MessageEvent('message', { data: { type: EMBED_HEIGHT_MESSAGE, height }, origin, source }),
        );
      });
    };
    const preview = frame() as HTMLIFrameElement;
    told(236.4, window);
    told(236.4, preview.contentWindow, 'https://ailleurs.example');
    told('236', preview.contentWindow);
    expect(preview).toHaveAttribute('height', String(EMBED_HEIGHTS.carte));
    told(236.4, preview.contentWindow);
    expect(preview).toHaveAttribute('height', '237');
  });

  it('opens preset from its address, as the « Intégrer » links and a shared choice write it', () => {
    renderPage('/integrer?residence=la-brume&theme=jaune&format=carte');
    expect(screen.getByRole('radio', { name: /Une résidence/ })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Résidence' })).toHaveValue('la-brume');
    expect(screen.getByRole('radio', { name: 'Jaune (couleurs du collectif)' })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Carte/ })).toBeChecked();
    expect(frame()).toHaveAttribute('src', '/embed/lecteur?residence=la-brume&theme=jaune&format=carte');
    expect(configuratorSearchFor({ kind: 'residence', id: 'la-brume' })).toBe('?residence=la-brume');
    expect(configuratorSearchFor({ kind: 'episode', slug: 'axonberg-1' })).toBe('?episode=axonberg-1');
    // An id the player cannot read back from an address gets no link.
    expect(configuratorSearchFor({ kind: 'residence', id: '130E0A' })).toBeNull();
  });

  it('finds an episode with the archive’s search and plays the one chosen', async () => {
    renderPage('/integrer?format=carte');
    fireEvent.click(screen.getByRole('radio', { name: /Un épisode/ }));
    // Nothing to play yet: the preview and the code wait for an episode.
    expect(screen.getByText(/Cherchez un épisode, puis choisissez-le/)).toBeInTheDocument();
    expect(screen.queryByTitle(/^Lecteur/)).not.toBeInTheDocument();
    expect(address()).toBe('/integrer?format=carte');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Rechercher un épisode' }), {
      target: { value: 'synapses' },
    });
    const results = await screen.findByRole('group', { name: 'Épisodes' });
    expect(api.requests).toContain('/episodes?q=synapses');
    expect(
      within(results)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['axonberg-1', 'axonberg-2']);
    fireEvent.click(within(results).getByRole('radio', { name: /Axonberg · Synapses #10/ }));
    await waitFor(() => {
      expect(address()).toBe('/integrer?episode=axonberg-2&format=carte');
    });
    expect(frame()).toHaveAttribute('src', '/embed/lecteur?episode=axonberg-2&format=carte');
    expect(scriptCode()).toContain('episode="axonberg-2"');

    // Enter searches at once, without waiting for the pause.
    const search = screen.getByRole('searchbox', { name: 'Rechercher un épisode' });
    fireEvent.change(search, { target: { value: 'brume' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(await within(results).findByRole('radio', { name: /La Brume · Nappes du Matin #4/ })).toBeInTheDocument();
    // The episode chosen stays chosen, first, though the search no longer finds it.
    expect(within(results).getByRole('radio', { name: /Axonberg · Synapses #10/ })).toBeChecked();
  });

  it('names a preset episode and says so when the search finds nothing', async () => {
    renderPage('/integrer?episode=la%20brume');
    // Not a slug: the live stream.
    expect(screen.getByRole('radio', { name: /Le direct/ })).toBeChecked();

    renderPage('/integrer?episode=la-brume-3');
    const chosen = await screen.findByRole('radio', { name: /La Brume · Nappes du Matin #4/ });
    expect(chosen).toBeChecked();
    const search = screen.getAllByRole('searchbox', { name: 'Rechercher un épisode' }).at(-1)!;
    fireEvent.change(search, { target: { value: 'zzz' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(await screen.findByText('Aucun épisode ne correspond à cette recherche.')).toBeInTheDocument();
  });

  it('takes the partner’s own colour', async () => {
    renderPage('/integrer?theme=clair');
    fireEvent.click(screen.getByRole('radio', { name: 'Ma couleur' }));
    await waitFor(() => {
      expect(address()).toBe('/integrer?theme=clair&couleur=7cc4ff');
    });
    const picker = screen.getByLabelText('Choisir ma couleur');
    fireEvent.change(picker, { target: { value: '#E0457B' } });
    expect(picker).toHaveValue('#e0457b');
    await waitFor(
      () => {
        expect(address()).toBe('/integrer?theme=clair&couleur=e0457b');
      },
      { timeout: COLOUR_DEBOUNCE_MS + 1000 },
    );
    expect(screen.getByRole('radio', { name: 'Ma couleur' })).toBeChecked();
    expect(frame()).toHaveAttribute('src', '/embed/lecteur?theme=clair&couleur=e0457b');
    expect(scriptCode()).toContain('theme="clair" couleur="#e0457b"');
    // A theme again: its own colours.
    fireEvent.click(screen.getByRole('radio', { name: 'Sombre' }));
    await waitFor(() => {
      expect(address()).toBe('/integrer');
    });
    expect(picker).toHaveValue('#e0457b');
  });

  it('offers « Écoute en différé », off by default, and writes it in the address, the preview and both codes', async () => {
    radioKeeps(4);
    renderPage('/integrer?residence=axonberg');
    const box = screen.getByRole('checkbox', { name: 'Écoute en différé (revenir en arrière dans le direct)' });
    expect(within(screen.getByRole('group', { name: 'Le direct' })).getByRole('checkbox')).toBe(box);
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(TIMELINE_NOTE);
    expect(scriptCode()).not.toContain('differe');
    expect(frameCode()).not.toContain('differe');

    fireEvent.click(box);
    await waitFor(() => {
      expect(address()).toBe('/integrer?residence=axonberg&differe=1');
    });
    expect(box).toBeChecked();
    expect(frame()).toHaveAttribute('src', '/embed/lecteur?residence=axonberg&differe=1');
    expect(scriptCode()).toContain('<collectif-player api-base="http://localhost/api" residence="axonberg" differe>');
    expect(frameCode()).toContain('<iframe src="http://localhost/embed/lecteur?residence=axonberg&amp;differe=1"');
    // The iframe leaves room for the timeline's row under the bar.
    const height = String(EMBED_HEIGHTS.barre + EMBED_TIMELINE_HEIGHTS.barre);
    expect(frame()).toHaveAttribute('height', height);
    expect(frameCode()).toContain(`height="${height}"`);

    // Another choice keeps it; unchecked, it is gone from the address and the code.
    fireEvent.click(screen.getByRole('radio', { name: /Le direct/ }));
    await waitFor(() => {
      expect(address()).toBe('/integrer?differe=1');
    });
    fireEvent.click(box);
    await waitFor(() => {
      expect(address()).toBe('/integrer');
    });
    expect(scriptCode()).not.toContain('differe');
    expect(frame()).toHaveAttribute('height', String(EMBED_HEIGHTS.barre));
  });

  it('opens « Écoute en différé » checked from an address, and says when the radio keeps no hours', () => {
    radioKeeps(0);
    renderPage('/integrer?format=carte&differe=1');
    const box = screen.getByRole('checkbox', { name: /Écoute en différé/ });
    expect(box).toBeChecked();
    // The choice stays the partner's: the radio's settings decide, when the player plays, whether it shows.
    expect(box).toHaveAccessibleDescription(NO_TIMELINE_NOTE);
    expect(frame()).toHaveAttribute('src', '/embed/lecteur?format=carte&differe=1');
    expect(frame()).toHaveAttribute('height', String(EMBED_HEIGHTS.carte + EMBED_TIMELINE_HEIGHTS.carte));
    expect(scriptCode()).toContain('format="carte" differe>');
  });

  it('copies the code, says « Copié », and says how to copy it when the browser refuses', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: (text: string) => {
          copied.push(text);
          return Promise.resolve();
        },
      },
    });
    renderPage('/integrer?residence=axonberg');
    const script = screen.getByRole('region', { name: 'Avec un script' });
    fireEvent.click(within(script).getByRole('button', { name: 'Copier : Le code du lecteur (script)' }));
    expect(await within(script).findByText(COPIED)).toBeInTheDocument();
    expect(copied).toEqual([scriptCode()]);

    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new DOMException('Refusé', 'NotAllowedError')) },
    });
    const iframe = screen.getByRole('region', { name: 'Avec une iframe' });
    fireEvent.click(within(iframe).getByRole('button', { name: 'Copier : Le code du lecteur (iframe)' }));
    expect(await within(iframe).findByText(COPY_REFUSED)).toBeInTheDocument();
    const field = within(iframe).getByRole<HTMLTextAreaElement>('textbox', { name: 'Le code du lecteur (iframe)' });
    expect(document.activeElement).toBe(field);
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, field.value.length]);
  });
});

describe('the configurator’s address', () => {
  const read = (query: string) => readConfigurator(new URLSearchParams(query));

  it('reads the form sent without JavaScript: the source chosen, and the colour only with « Ma couleur »', () => {
    expect(read('joue=residence&residence=axonberg&q=&theme=clair&couleur=%23ff0000&format=barre').options).toEqual({
      source: { kind: 'residence', id: 'axonberg' },
      theme: 'clair',
      colour: null,
      format: 'barre',
      timeline: false,
    });
    expect(read('joue=direct&residence=axonberg&episode=x-1&theme=couleur&couleur=%23FF0000').options).toEqual({
      source: { kind: 'direct' },
      theme: 'sombre',
      colour: '#ff0000',
      format: 'barre',
      timeline: false,
    });
    const waiting = read('joue=episode&residence=axonberg&q=dub');
    expect(waiting).toMatchObject({ kind: 'episode', q: 'dub', options: { source: { kind: 'direct' } } });
    expect(read('joue=episode&episode=x-1').options.source).toEqual({ kind: 'episode', slug: 'x-1' });
  });

  it('reads « Écoute en différé » as the checkbox sends it (differe=1), and nothing else', () => {
    expect(read('joue=direct&theme=sombre&differe=1&format=barre').options.timeline).toBe(true);
    expect(read('joue=residence&residence=axonberg&theme=sombre&format=carte').options.timeline).toBe(false);
    expect(read('joue=direct&differe=%22%3E%3Cscript%3E').options.timeline).toBe(false);
  });
});

describe('the page on the server and in the browser', () => {
  const query = '/integrer?episode=axonberg-2&q=synapses&theme=clair';

  function Page({ store }: { store: AppStore }) {
    return (
      <Provider store={store}>
        <MemoryRouter initialEntries={[query]}>
          <EmbedPage />
        </MemoryRouter>
      </Provider>
    );
  }

  it('loads the preset episode and the search, is headed /integrer, and hydrates with the same code', async () => {
    // The server's store reaches /api at the site's public origin (docs/rendering.md).
    const server = makeStore(undefined, {
      api: { base: `${ORIGIN}/api`, transport: (request) => fetch(request.url.replace(`${ORIGIN}/api`, apiUrl(''))) },
    });
    const context = {
      params: {},
      origin: ORIGIN,
      query: new URLSearchParams(query.split('?')[1]),
      radio: radioSettings(),
      href: declaredHref,
    };
    await Promise.all(integrer.load!({ ...context, dispatch: server.dispatch }));
    expect(apiSlice.endpoints.episode.select('axonberg-2')(server.getState()).data?.show).toBe('Synapses #10');
    expect(apiSlice.endpoints.episodes.select({ q: 'synapses' })(server.getState()).data?.total).toBe(2);
    expect(integrer.head!({ ...context, state: server.getState() })).toEqual({ canonicalPath: '/integrer' });

    const html = renderToString(<Page store={server} />);
    expect(html).toContain(`api-base=&quot;${ORIGIN}/api&quot;`);
    expect(html).toContain('Axonberg · Synapses #11');

    // The browser: the server's answers, the canonical address the server wrote, the same HTML.
    const canonical = document.createElement('link');
    canonical.rel = 'canonical';
    canonical.href = `${ORIGIN}/integrer`;
    document.head.append(canonical);
    const browser = makeStore({ api: server.getState().api });
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors = jest.spyOn(console, 'error');
    const recoverable: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <Page store={browser} />, { onRecoverableError: (error) => recoverable.push(error) });
      await Promise.resolve();
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect(
      within(container).getByRole<HTMLTextAreaElement>('textbox', { name: 'Le code du lecteur (script)' }).value,
    ).toContain(`<collectif-player api-base="${ORIGIN}/api" episode="axonberg-2" theme="clair">`);
    expect(within(container).getByTitle(`Lecteur ${siteConfig.name} : un épisode`)).toHaveAttribute(
      'src',
      '/embed/lecteur?episode=axonberg-2&theme=clair',
    );
    container.remove();
  });
});
