import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { RADIO_SETTINGS_ID, resetRadioSettings, siteConfig, twitchChannelUrl } from '@collectif/shared';
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
