import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUDIO_ELEMENT_ID } from '../player/audioEngine';
import {
  installEventSource,
  json,
  startLoopbackServer,
  stubMediaPlayback,
  type LoopbackServer,
} from '../testing/browser';
import { embedPlayer, type EmbeddedPlayer } from './host';
import { inkFor } from './options';
import { cleanPage, host, inShadow } from './testing';

/** The partner script's first part: the bar before the first play, then the player on a press. */
let server: LoopbackServer;
let mounted: EmbeddedPlayer | null = null;

const EPISODE = {
  pubDate: '2026-10-28T19:00:00.000Z',
  url: '/api/demo/replays/nuit.mp3',
  duration: 3725,
  artist: 'Axonberg',
  show: 'Synapses #11',
  cover: '/assets/images/residences/axonberg-400.webp',
  slug: 'axonberg-synapses-11',
};
const OLDER = {
  ...EPISODE,
  pubDate: '2026-09-03T19:00:00.000Z',
  url: '/api/demo/replays/avant.mp3',
  show: 'Synapses #10',
  slug: 'axonberg-synapses-10',
};

beforeAll(async () => {
  server = await startLoopbackServer({
    '/api/nowplaying': json({ artist: 'DJ Partenaire', title: 'Direct partenaire' }),
    '/api/radio': json({ liveStreamUrl: '/flux/radio.mp3' }),
    '/api/episodes/axonberg-synapses-11': json(EPISODE),
    '/api/episodes/disparu': json({ error: 'episode_not_found', message: 'Épisode introuvable' }, 404),
    '/api/episodes': ({ url }, response) => {
      const residence = new URL(url, 'http://x').searchParams.get('residence');
      response.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      response.end(JSON.stringify({ items: residence === 'axonberg' ? [EPISODE, OLDER] : [], total: 0 }));
    },
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  stubMediaPlayback();
  installEventSource();
});

afterEach(() => {
  act(() => {
    mounted?.unmount();
  });
  mounted = null;
  cleanPage(server);
});

function audioSource(): string | undefined {
  return (document.getElementById(AUDIO_ELEMENT_ID) as HTMLAudioElement | null)?.src;
}

const api = () => `${server.origin}/api`;

describe('the bar before the first play', () => {
  it('shows the live stream’s names, then the press fetches the player, which plays the live stream', async () => {
    const element = host();
    mounted = embedPlayer(element, { apiBase: api() }, '');
    const bar = inShadow(element);
    expect(await bar.findByText('DJ Partenaire')).toBeInTheDocument();
    expect(bar.getByText('En direct')).toBeInTheDocument();
    // Nothing of the player before the press: no audio element, no settings asked.
    expect(document.getElementById(AUDIO_ELEMENT_ID)).toBeNull();
    expect(server.requests).not.toContain('/api/radio');

    await userEvent.setup().click(bar.getByRole('button', { name: 'Lecture' }));
    expect(await bar.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    await waitFor(() => {
      expect(audioSource()?.startsWith(`${server.origin}/flux/radio.mp3?direct=`)).toBe(true);
    });
    // One bar throughout: the one drawn before is gone once the player is shown.
    expect(bar.getAllByRole('region', { name: 'Lecteur radio' })).toHaveLength(1);
  });

  it('shows an episode with its length and plays it, its address read against the API', async () => {
    const element = host();
    mounted = embedPlayer(element, { apiBase: api(), source: { kind: 'episode', slug: EPISODE.slug } }, '');
    const bar = inShadow(element);
    expect(await bar.findByText('Synapses #11')).toBeInTheDocument();
    expect(bar.getByText('-1:02:05')).toBeInTheDocument();
    expect(element.shadowRoot?.querySelector('.player__cover')).toHaveAttribute(
      'src',
      `${server.origin}${EPISODE.cover}`,
    );

    await userEvent.setup().click(bar.getByRole('button', { name: 'Lecture' }));
    expect(await bar.findByRole('button', { name: 'Revenir au direct' })).toBeInTheDocument();
    await waitFor(() => {
      expect(audioSource()).toBe(`${server.origin}${EPISODE.url}`);
    });
  });

  it('plays a residence’s latest episode', async () => {
    const element = host();
    mounted = embedPlayer(element, { apiBase: api(), source: { kind: 'residence', id: 'axonberg' } }, '');
    const bar = inShadow(element);
    expect(await bar.findByText('Synapses #11')).toBeInTheDocument();
    await userEvent.setup().click(bar.getByRole('button', { name: 'Lecture' }));
    await waitFor(() => {
      expect(audioSource()).toBe(`${server.origin}${EPISODE.url}`);
    });
  });

  it('lists a residence’s latest episodes under its card; a press on one plays it, the one playing marked', async () => {
    const element = host();
    mounted = embedPlayer(
      element,
      { apiBase: api(), source: { kind: 'residence', id: 'axonberg' }, format: 'carte' },
      '',
    );
    const bar = inShadow(element);
    const list = await bar.findByRole('region', { name: 'Derniers épisodes' });
    const [newest, older] = within(list).getAllByRole('button');
    if (newest === undefined || older === undefined) throw new Error('deux épisodes attendus');
    expect(newest).toHaveAccessibleName('Synapses #11 28 oct.');
    expect(newest).toHaveAttribute('aria-current', 'true');
    await userEvent.setup().click(older);
    await waitFor(() => {
      expect(audioSource()).toBe(`${server.origin}${OLDER.url}`);
    });
    await waitFor(() => {
      expect(older).toHaveAttribute('aria-current', 'true');
    });
    expect(newest).not.toHaveAttribute('aria-current');
    // The player took the bar's place; the list stays under it, and plays the next press at once.
    await userEvent.setup().click(newest);
    await waitFor(() => {
      expect(audioSource()).toBe(`${server.origin}${EPISODE.url}`);
    });
  });

  it('lists nothing for a residence shown as a bar', async () => {
    const element = host();
    mounted = embedPlayer(element, { apiBase: api(), source: { kind: 'residence', id: 'axonberg' } }, '');
    const bar = inShadow(element);
    await bar.findByText('Synapses #11');
    expect(bar.queryByRole('region', { name: 'Derniers épisodes' })).toBeNull();
  });

  it('says so and offers the live stream for an unknown episode, an empty residence or an API that is down', async () => {
    const cases = [
      { source: { kind: 'episode', slug: 'disparu' }, said: 'Épisode introuvable : voici le direct.' },
      {
        source: { kind: 'residence', id: 'silence' },
        said: 'Cette résidence n’a pas encore d’épisode : voici le direct.',
      },
    ] as const;
    for (const { source, said } of cases) {
      const element = host();
      mounted = embedPlayer(element, { apiBase: api(), source }, '');
      const bar = inShadow(element);
      expect(await bar.findByText(said)).toBeInTheDocument();
      expect(bar.getByText('En direct')).toBeInTheDocument();
      act(() => {
        mounted?.unmount();
      });
      mounted = null;
    }
    const element = host();
    mounted = embedPlayer(
      element,
      { apiBase: 'http://127.0.0.1:9/api', source: { kind: 'episode', slug: 'axonberg-synapses-11' } },
      '',
    );
    expect(
      await inShadow(element).findByText('L’épisode ne répond pas pour le moment : voici le direct.'),
    ).toBeInTheDocument();
  });

  it('starts the player with what the partner’s page asks before any press', async () => {
    const element = host();
    mounted = embedPlayer(element, { apiBase: api() }, '');
    const bar = inShadow(element);
    await bar.findByText('DJ Partenaire');
    act(() => {
      window.dispatchEvent(
        new CustomEvent('collectif:replay-selected', {
          detail: { url: OLDER.url, duration: 60, artist: 'Axonberg', show: 'Synapses #10' },
        }),
      );
    });
    expect(await bar.findByText('Synapses #10')).toBeInTheDocument();
    await waitFor(() => {
      expect(audioSource()).toBe(`${server.origin}${OLDER.url}`);
    });
  });

  it('puts the look on the host element, the partner’s colour with an ink that reads on it', () => {
    const element = host();
    mounted = embedPlayer(element, { apiBase: api(), theme: 'clair', format: 'carte', colour: '#1e90ff' }, '');
    expect(element.dataset).toMatchObject({ theme: 'clair', format: 'carte' });
    expect(element.style.getPropertyValue('--color-accent')).toBe('#1e90ff');
    expect(element.style.getPropertyValue('--color-accent-ink')).toBe('#1a1400');
    expect(inkFor('#1a1a80')).toBe('#ffffff');
    expect(inkFor('#ffcf3f')).toBe('#1a1400');
  });

  it('refuses wrong options and a second player with a French error', () => {
    expect(() => embedPlayer(host(), { apiBase: 'javascript:alert(1)' }, '')).toThrow(
      'CollectifPlayer : l’option « apiBase » doit être une adresse http(s) (javascript:alert(1)).',
    );
    mounted = embedPlayer(host(), { apiBase: api() }, '');
    expect(() => embedPlayer(host(), { apiBase: api() }, '')).toThrow('un seul lecteur par page');
  });
});
