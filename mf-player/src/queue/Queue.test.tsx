import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  emit,
  eventBehaviour,
  on,
  QUEUE_MAX,
  resetEvents,
  type EpisodeDetail,
  type QueueState,
} from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import Player from '../exposed/Player';
import { configurePlayer } from '../player/config';
import {
  installEventSource,
  installMediaSession,
  json,
  playerAudio,
  removeEventSource,
  removeMediaSession,
  startLoopbackServer,
  stubMediaPlayback,
  type FakeMediaSession,
  type LoopbackServer,
} from '../testing/browser';
import { rememberPosition } from '@collectif/shared/resume';
import { readStoredQueue } from './storage';
import { QUEUE_KEY } from './wanted';

function episode(slug: string, artist: string, duration = 60): EpisodeDetail {
  return {
    url: `/api/demo/replays/${slug}.mp3`,
    duration,
    artist,
    show: `Émission de ${artist}`,
    cover: '/assets/images/a.webp',
    link: `https://soundcloud.com/collectif/${slug}`,
    pubDate: '2026-10-26T19:00:00.000Z',
    slug,
    residences: [],
    styles: [],
  };
}

const NAMES: Record<string, string> = { un: 'Axonberg', deux: 'Kalibre', trois: 'Mona Vex' };

let server: LoopbackServer;
let session: FakeMediaSession;

beforeAll(async () => {
  const routes: Parameters<typeof startLoopbackServer>[0] = {};
  for (const [slug, artist] of Object.entries(NAMES)) routes[`/api/episodes/${slug}`] = json(episode(slug, artist));
  for (let i = 0; i < QUEUE_MAX + 10; i += 1)
    routes[`/api/episodes/e-${String(i)}`] = json(episode(`e-${String(i)}`, `Artiste ${String(i)}`));
  routes['/api/episodes/retire'] = json({ error: 'introuvable', message: 'Épisode introuvable.' }, 404);
  server = await startLoopbackServer(routes);
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  localStorage.clear();
  resetEvents();
  configurePlayer({ apiBase: `${server.origin}/api` });
  stubMediaPlayback();
  session = installMediaSession();
  installEventSource();
});

afterEach(() => {
  removeMediaSession();
  removeEventSource();
  jest.restoreAllMocks();
});

const stored = () => readStoredQueue(localStorage.getItem(QUEUE_KEY)).map((entry) => entry.slug);
const announced = () => screen.getByTestId('file-annonce');
const audioPath = () => new URL(playerAudio().src, server.origin).pathname;

function renderPlayer() {
  const user = userEvent.setup();
  return { user, ...renderWithProviders(<Player />) };
}

/** Opens the player on the live: it is then not quiet, and a queue-add only queues. */
async function openLive(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
  await screen.findByRole('button', { name: 'Fermer le lecteur' });
}

function add(...slugs: (string | { slug: string; start: number })[]) {
  act(() => {
    emit('queue-add', { items: slugs.map((slug) => (typeof slug === 'string' ? { slug } : slug)) });
  });
}

describe('the queue', () => {
  it('takes every queue-add sent before the player listened, in order, and plays the first when nothing played', async () => {
    // Three pages' « Ajouter à la file » before the player's script ran.
    emit('queue-add', { items: [{ slug: 'un' }] });
    emit('queue-add', { items: [{ slug: 'deux' }] });
    emit('queue-add', { items: [{ slug: 'trois', start: 30 }] });
    renderPlayer();
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/un.mp3');
    });
    // The bar opens on the replay in a render after its sound is set: awaited (CI read it just before).
    expect(await screen.findByText('Axonberg')).toBeInTheDocument();
    expect(stored()).toEqual(['deux', 'trois']);
    expect(await screen.findByRole('button', { name: /File d’écoute \(2\) · À suivre : Kalibre/ })).toBeInTheDocument();
  });

  it('plays the next item at the end of a replay, from its start when it has one, and says what comes next', async () => {
    const { user } = renderPlayer();
    await openLive(user);
    add({ slug: 'deux', start: 30 }, 'trois');
    await waitFor(() => {
      expect(stored()).toEqual(['deux', 'trois']);
    });
    expect(announced()).toHaveTextContent('2 épisodes ajoutés à la file.');
    await user.click(await screen.findByRole('button', { name: /File d’écoute \(2\)/ }));
    await user.click(await screen.findByRole('button', { name: 'Écouter Kalibre — Émission de Kalibre' }));
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/deux.mp3');
    });
    fireEvent(playerAudio(), new Event('playing'));
    expect(screen.getByText('0:30')).toBeInTheDocument();
    expect(stored()).toEqual(['trois']);

    fireEvent(playerAudio(), new Event('ended'));
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/trois.mp3');
    });
    expect(screen.getByText('Mona Vex')).toBeInTheDocument();
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
    expect(screen.queryByRole('button', { name: /File d’écoute/ })).not.toBeInTheDocument();
  });

  it('plays an add at once when the player is paused, and only queues it while sound is wanted', async () => {
    const { user } = renderPlayer();
    await openLive(user);
    add('un');
    await waitFor(() => {
      expect(stored()).toEqual(['un']);
    });
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    add('deux');
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/deux.mp3');
    });
    expect(stored()).toEqual(['un']);
  });

  it('resumes an item without a start where this browser left its replay', async () => {
    rememberPosition('/api/demo/replays/deux.mp3', 45, 60);
    renderPlayer();
    add('deux');
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/deux.mp3');
    });
    fireEvent(playerAudio(), new Event('playing'));
    expect(screen.getByText('0:45')).toBeInTheDocument();
  });

  it('moves items with their buttons and with Alt + arrows, the focus following; removes and clears', async () => {
    const { user } = renderPlayer();
    await openLive(user);
    add('un', 'deux', 'trois');
    await user.click(await screen.findByRole('button', { name: /File d’écoute \(3\)/ }));
    const panel = screen.getByRole('region', { name: 'File d’écoute' });
    await within(panel).findByRole('button', { name: 'Monter Mona Vex — Émission de Mona Vex' });

    await user.click(within(panel).getByRole('button', { name: 'Monter Mona Vex — Émission de Mona Vex' }));
    await waitFor(() => {
      expect(stored()).toEqual(['un', 'trois', 'deux']);
    });
    expect(within(panel).getByRole('button', { name: 'Monter Mona Vex — Émission de Mona Vex' })).toHaveFocus();
    expect(announced()).toHaveTextContent('Déplacé en position 2 sur 3.');

    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(stored()).toEqual(['trois', 'un', 'deux']);
    // At the top « Monter » is off: the focus goes to « Descendre » of the same item.
    expect(within(panel).getByRole('button', { name: 'Descendre Mona Vex — Émission de Mona Vex' })).toHaveFocus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}{Alt>}{ArrowDown}{/Alt}');
    expect(stored()).toEqual(['un', 'deux', 'trois']);

    await user.click(within(panel).getByRole('button', { name: 'Retirer Kalibre — Émission de Kalibre de la file' }));
    expect(stored()).toEqual(['un', 'trois']);
    await user.click(within(panel).getByRole('button', { name: 'Vider la file' }));
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
    expect(within(panel).getByText('La file d’écoute est vide.')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'File d’écoute' })).not.toBeInTheDocument();
  });

  it('holds at most QUEUE_MAX items, adds what fits and says so', async () => {
    const { user } = renderPlayer();
    await openLive(user);
    add('e-0', 'e-1');
    const many = Array.from({ length: 60 }, (_, i) => ({ slug: `e-${String(i)}` }));
    act(() => {
      emit('queue-add', { items: many, label: 'Axonberg' });
    });
    await waitFor(() => {
      expect(announced()).toHaveTextContent(`La file est pleine (50) : 48 épisodes ajoutés sur 60.`);
    });
    expect(stored()).toHaveLength(QUEUE_MAX);
    expect(stored().slice(0, 3)).toEqual(['e-0', 'e-1', 'e-2']);
    add('un');
    await waitFor(() => {
      expect(announced()).toHaveTextContent('La file est pleine (50) : 0 épisode ajouté sur 1.');
    });
  });

  it('says a single add by the episode’s names, and drops an episode no longer in the archives', async () => {
    const { user } = renderPlayer();
    await openLive(user);
    add('un');
    await waitFor(() => {
      expect(announced()).toHaveTextContent('Ajouté à la file : Axonberg — Émission de Axonberg.');
    });
    add('retire');
    await waitFor(() => {
      expect(announced()).toHaveTextContent(
        'Cet épisode n’est plus dans les archives : il n’est pas ajouté à la file.',
      );
    });
    expect(stored()).toEqual(['un']);
    add('un');
    await waitFor(() => {
      expect(announced()).toHaveTextContent('Déjà dans la file.');
    });
  });

  it('passes over a stored item no longer in the archives when it comes to it', async () => {
    localStorage.setItem(QUEUE_KEY, JSON.stringify([{ slug: 'retire' }, { slug: 'deux' }]));
    const { user } = renderPlayer();
    await openLive(user);
    await user.click(await screen.findByRole('button', { name: /File d’écoute \(2\)/ }));
    await user.click(await screen.findByRole('button', { name: 'Écouter Épisode introuvable (retire)' }));
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/deux.mp3');
    });
    expect(announced()).toHaveTextContent('L’épisode « retire » n’est plus dans les archives : retiré de la file.');
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it('ignores a tampered stored queue, keeping only well-formed items', async () => {
    localStorage.setItem(
      QUEUE_KEY,
      JSON.stringify([
        { slug: '<img src=x onerror=alert(1)>' },
        { slug: 'https://evil.example/a.mp3' },
        { slug: 'un', start: -5 },
        { slug: 'deux', start: 'soon' },
        'trois',
        { slug: 'trois', start: 30, url: 'https://evil.example/a.mp3' },
        { slug: 'trois', start: 30 },
      ]),
    );
    const states: QueueState[] = [];
    const off = on('queue-state', (state) => states.push(state));
    const { user } = renderPlayer();
    await openLive(user);
    await screen.findByRole('button', { name: /File d’écoute \(1\)/ });
    expect(states.at(-1)).toEqual({ items: [{ slug: 'trois', start: 30 }] });
    expect(server.requests.filter((path) => path.includes('evil'))).toEqual([]);
    off();

    expect(readStoredQueue('{"slug":"un"}')).toEqual([]);
    expect(readStoredQueue('pas du JSON')).toEqual([]);
    expect(readStoredQueue(JSON.stringify(Array.from({ length: 5000 }, () => ({ slug: 'un' }))))).toEqual([]);
    expect(
      readStoredQueue(JSON.stringify(Array.from({ length: 80 }, (_, i) => ({ slug: `e-${String(i)}` })))),
    ).toHaveLength(QUEUE_MAX);
  });

  it('follows another tab’s changes, checked as the stored queue is', async () => {
    const { user } = renderPlayer();
    await openLive(user);
    add('un');
    await screen.findByRole('button', { name: /File d’écoute \(1\)/ });
    const other = JSON.stringify([{ slug: 'deux' }, { slug: 'trois', start: 12 }, { slug: '<b>' }]);
    localStorage.setItem(QUEUE_KEY, other);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: QUEUE_KEY, newValue: other }));
    });
    expect(await screen.findByRole('button', { name: /File d’écoute \(2\) · À suivre : Kalibre/ })).toBeInTheDocument();
  });

  it('refuses a malformed queue-add from a page’s script in French, changing nothing', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderPlayer();
    await openLive(user);
    act(() => {
      window.dispatchEvent(new CustomEvent('collectif:queue-add', { detail: { items: 'un' } }));
    });
    await waitFor(() => {
      expect(error).toHaveBeenCalledWith('Lecteur : ajout à la file ignoré, « items » doit être une liste d’épisodes.');
    });
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  it('gives the system’s controls nexttrack while the queue has an item, and previoustrack in a replay', async () => {
    const { user } = renderPlayer();
    await openLive(user);
    add('un', 'deux');
    await waitFor(() => {
      expect(session.handlers.has('nexttrack')).toBe(true);
    });
    expect(session.handlers.has('previoustrack')).toBe(false);

    act(() => {
      session.handlers.get('nexttrack')?.({ action: 'nexttrack' });
    });
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/un.mp3');
    });
    expect(session.handlers.has('previoustrack')).toBe(true);
    act(() => {
      session.handlers.get('nexttrack')?.({ action: 'nexttrack' });
    });
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/deux.mp3');
    });
    // The queue is empty: nothing next.
    expect(session.handlers.has('nexttrack')).toBe(false);

    // Just started: back to the replay before, and this one goes back to the queue's head.
    act(() => {
      session.handlers.get('previoustrack')?.({ action: 'previoustrack' });
    });
    await waitFor(() => {
      expect(audioPath()).toBe('/api/demo/replays/un.mp3');
    });
    expect(stored()).toEqual(['deux']);
    expect(session.handlers.has('nexttrack')).toBe(true);
  });

  it('stays out of the way under a shell before contract 3.3.0, whose bus knows no queue event', async () => {
    localStorage.setItem(QUEUE_KEY, JSON.stringify([{ slug: 'un' }]));
    const table = eventBehaviour as Record<string, unknown>;
    const known = table['queue-add'];
    Reflect.deleteProperty(table, 'queue-add');
    try {
      const { user } = renderPlayer();
      await openLive(user);
      expect(screen.queryByTestId('file-annonce')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /File d’écoute/ })).not.toBeInTheDocument();
    } finally {
      table['queue-add'] = known;
    }
  });

  it('is not taken by a player that did not ask for it (a partner’s)', async () => {
    configurePlayer({ apiBase: `${server.origin}/api`, queue: false });
    const { user } = renderPlayer();
    await openLive(user);
    add('un');
    expect(screen.queryByTestId('file-annonce')).not.toBeInTheDocument();
    expect(server.requests.filter((path) => path.startsWith('/api/episodes'))).toEqual([]);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });
});
