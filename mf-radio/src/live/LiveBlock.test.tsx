import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { renderWithProviders } from '@collectif/shared/test-utils';
import {
  api as radioApi,
  makeStore,
  RADIO_SETTINGS_ID,
  resetRadioSettings,
  siteConfig,
  ssrHydrated,
  twitchChannelUrl,
} from '@collectif/shared';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import { LiveBlock } from './LiveBlock';
import { TWITCH_EMBED_SCRIPT, type TwitchEmbedOptions } from './twitch';

let api: FakeApi;
let live = false;
let errors: jest.SpyInstance;

beforeEach(async () => {
  live = false;
  api = await startFakeApi({ '/islive': () => ({ body: { live } }) });
  errors = jest.spyOn(console, 'error');
});

afterEach(async () => {
  errors.mockRestore();
  Reflect.deleteProperty(window, 'Twitch');
  document.head.querySelectorAll('script').forEach((s) => {
    s.remove();
  });
  resetRadioSettings();
  await api.close();
});

function islive(): number {
  return api.requests.filter((r) => r === '/islive').length;
}

function twitchScript(): HTMLScriptElement | null {
  return document.head.querySelector<HTMLScriptElement>(`script[src="${TWITCH_EMBED_SCRIPT}"]`);
}

describe('LiveBlock, not live', () => {
  it('checks the status on load, showing "Chargement ..." until the answer is used', async () => {
    renderWithProviders(<LiveBlock />);
    expect(screen.getByRole('button', { name: 'Chargement ...' })).toHaveAttribute('aria-disabled', 'true');
    expect(await screen.findByRole('button', { name: 'Rafraîchir' })).toHaveAttribute('aria-disabled', 'false');
    expect(islive()).toBe(1);
    expect(screen.getByRole('heading', { name: 'Pas de direct au studio actuellement' })).toBeInTheDocument();
    expect(
      screen.getByText('Cliquez pour rafraîchir ou regarder les derniers directs en replay sur Twitch'),
    ).toBeInTheDocument();
    const twitch = screen.getByRole('link', { name: /Regarder sur Twitch/ });
    expect(twitch).toHaveAttribute('href', twitchChannelUrl());
    expect(twitch).toHaveAttribute('target', '_blank');
    expect(twitchScript()).toBeNull();
  });

  it('asks again on each refresh click', async () => {
    renderWithProviders(<LiveBlock />);
    fireEvent.click(await screen.findByRole('button', { name: 'Rafraîchir' }));
    expect(screen.getByRole('button', { name: 'Chargement ...' })).toBeInTheDocument();
    // A click while a check runs does not start another one.
    fireEvent.click(screen.getByRole('button', { name: 'Chargement ...' }));
    await screen.findByRole('button', { name: 'Rafraîchir' });
    expect(islive()).toBe(2);
  });

  it('logs a failed check as the spec says, keeps the panel and ends the loading state', async () => {
    api.set('/islive', () => ({ status: 503, body: { error: 'upstream', message: 'Twitch ne répond pas.' } }));
    errors.mockImplementation(() => undefined);
    renderWithProviders(<LiveBlock />);
    expect(await screen.findByRole('button', { name: 'Rafraîchir' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Erreur lors du refresh:', expect.objectContaining({ status: 503 }));
    expect(screen.getByRole('heading', { name: 'Pas de direct au studio actuellement' })).toBeInTheDocument();
  });

  it('survives a cut connection the same way', async () => {
    api.set('/islive', () => 'network-error');
    errors.mockImplementation(() => undefined);
    renderWithProviders(<LiveBlock />);
    expect(await screen.findByRole('button', { name: 'Rafraîchir' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Erreur lors du refresh:', expect.anything());
  });
});

describe('LiveBlock, live', () => {
  it('shows "Direct" and a link to the channel when the Twitch script cannot load', async () => {
    live = true;
    const warnings = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderWithProviders(<LiveBlock />);
    expect(await screen.findByRole('heading', { name: 'Direct' })).toBeInTheDocument();
    expect(screen.getByText('Chargement du lecteur vidéo ...')).toBeInTheDocument();
    await waitFor(() => {
      expect(twitchScript()).not.toBeNull();
    });
    twitchScript()!.dispatchEvent(new Event('error'));
    const link = await screen.findByRole('link', { name: /Regarder le direct sur Twitch/ });
    expect(link).toHaveAttribute('href', twitchChannelUrl());
    expect(link).toHaveAttribute('target', '_blank');
    expect(twitchScript()).toBeNull();
    warnings.mockRestore();
  });

  it('embeds the channel at full width, and destroys the player when the studio goes off air', async () => {
    const made: { id: string; options: TwitchEmbedOptions; destroyed: boolean }[] = [];
    window.Twitch = {
      Embed: class {
        private readonly record: (typeof made)[number];
        constructor(id: string, options: TwitchEmbedOptions) {
          this.record = { id, options, destroyed: false };
          made.push(this.record);
          const frame = document.createElement('iframe');
          frame.title = 'Twitch';
          document.getElementById(id)?.append(frame);
        }
        destroy() {
          this.record.destroyed = true;
        }
      },
    };
    live = true;
    renderWithProviders(<LiveBlock />);
    expect(await screen.findByRole('heading', { name: 'Direct' })).toBeInTheDocument();
    await waitFor(() => {
      expect(made).toHaveLength(1);
    });
    expect(made[0]!.options).toEqual({
      channel: siteConfig.radio.twitchChannel,
      width: '100%',
      height: '100%',
      layout: 'video',
      parent: [window.location.hostname],
    });
    const region = screen.getByRole('region', { name: 'Lecteur vidéo du direct' });
    expect(region).toHaveAttribute('id', made[0]!.id);
    expect(screen.getByTitle('Twitch')).toBeInTheDocument();

    live = false;
    fireEvent.click(screen.getByRole('button', { name: 'Rafraîchir' }));
    expect(await screen.findByRole('heading', { name: 'Pas de direct au studio actuellement' })).toBeInTheDocument();
    expect(made[0]!.destroyed).toBe(true);
    expect(screen.queryByTitle('Twitch')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Direct' })).not.toBeInTheDocument();
  });

  it('embeds and links the channel of the settings the server wrote into the page', async () => {
    const settings = document.createElement('script');
    settings.type = 'application/json';
    settings.id = RADIO_SETTINGS_ID;
    settings.textContent = JSON.stringify({ twitchChannel: 'autre_chaine' });
    document.head.append(settings);
    resetRadioSettings();
    const made: TwitchEmbedOptions[] = [];
    window.Twitch = {
      Embed: class {
        constructor(_id: string, options: TwitchEmbedOptions) {
          made.push(options);
        }
        destroy() {
          made.length = 0;
        }
      },
    };
    live = false;
    renderWithProviders(<LiveBlock />);
    expect(await screen.findByRole('link', { name: /Regarder sur Twitch/ })).toHaveAttribute(
      'href',
      'https://www.twitch.tv/autre_chaine',
    );
    live = true;
    fireEvent.click(await screen.findByRole('button', { name: 'Rafraîchir' }));
    await waitFor(() => {
      expect(made).toHaveLength(1);
    });
    expect(made[0]?.channel).toBe('autre_chaine');
  });
});

describe('LiveBlock, « Titres précédents »', () => {
  const nowPlaying = {
    artist: 'Verglas',
    title: 'Froid Sec',
    history: [
      { artist: 'Onde Courte', title: 'Grandes Ondes', playedAt: '2026-03-04T20:42:00.000Z' },
      { artist: '158cm', title: 'Talons Plats', playedAt: '2026-03-04T20:38:00.000Z' },
    ],
  };

  it('lists what the radio played before, in Paris time, under the panel', async () => {
    api.set('/nowplaying', () => ({ body: nowPlaying }));
    renderWithProviders(<LiveBlock />);
    const recent = await screen.findByRole('region', { name: 'Titres précédents' });
    expect(
      within(recent)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['21:42 · Onde Courte — Grandes Ondes', '21:38 · 158cm — Talons Plats']);
    expect(recent.previousElementSibling).toHaveClass('live-panel');
    expect(api.requests.filter((r) => r === '/nowplaying')).toHaveLength(1);
  });

  it('shows it under the video when the studio is live', async () => {
    live = true;
    api.set('/nowplaying', () => ({ body: nowPlaying }));
    renderWithProviders(<LiveBlock />);
    expect(await screen.findByRole('heading', { name: 'Direct' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 3, name: 'Titres précédents' })).toBeInTheDocument();
  });

  it('shows nothing without a history, or when now-playing fails', async () => {
    api.set('/nowplaying', () => ({ body: { artist: 'Verglas', title: 'Froid Sec' } }));
    renderWithProviders(<LiveBlock />);
    await screen.findByRole('button', { name: 'Rafraîchir' });
    await waitFor(() => {
      expect(api.requests).toContain('/nowplaying');
    });
    expect(screen.queryByText('Titres précédents')).not.toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('hydrates the HTML the server rendered with the history, unchanged', async () => {
    api.set('/nowplaying', () => ({ body: nowPlaying }));
    const server = makeStore();
    await server.dispatch(radioApi.endpoints.nowPlaying.initiate(undefined));
    const html = renderToString(
      <Provider store={server}>
        <LiveBlock />
      </Provider>,
    );
    expect(html).toContain('<time dateTime="2026-03-04T20:42:00.000Z">21:42</time>');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const browser = makeStore();
    browser.dispatch(ssrHydrated({ api: server.getState()[radioApi.reducerPath] }));
    render(
      <Provider store={browser}>
        <LiveBlock />
      </Provider>,
      { container, hydrate: true },
    );
    expect(within(container).getAllByRole('listitem')).toHaveLength(2);
    await screen.findByRole('button', { name: 'Rafraîchir' });
    expect(errors).not.toHaveBeenCalled();
    // The page's answer is used: not asked again.
    expect(api.requests.filter((r) => r === '/nowplaying')).toHaveLength(1);
    container.remove();
  });
});
