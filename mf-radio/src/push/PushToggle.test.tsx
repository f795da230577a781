import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { makeStore } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { followedIds, setFollowedIds, unfollow } from '@collectif/shared/follow';
import { pushChoices, setPushChoices, PREVENIR_KEY } from '@collectif/shared/follow/prevenir';
import { startFakeApi, type FakeApi, type FakeAnswer } from '../testing/fakeApi';
import { FollowButton } from '../follow/FollowButton';
import FollowedPage from '../exposed/FollowedPage';
import { PUSH_TEXT, pushSupport } from './support';
import { RENEW_EVERY_MS, RENEWED_KEY, renewIfDue } from './push';

// « Me prévenir » (docs/follow.md, « Me prévenir »), through the fake /api, in a browser whose push
// service is a stand-in: jsdom has neither a service worker nor a PushManager.

const PUBLIC_KEY = Buffer.from([4, ...Array.from({ length: 64 }, (_, at) => at + 1)]).toString('base64url');
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/faux-abonnement';
const P256DH = Buffer.from([4, ...Array.from({ length: 64 }, () => 7)]).toString('base64url');
const AUTH = Buffer.from(Array.from({ length: 16 }, () => 9)).toString('base64url');

interface FakeBrowser {
  requestPermission: jest.Mock<Promise<NotificationPermission>, []>;
  subscribe: jest.Mock;
  unsubscribe: jest.Mock;
}

/** A browser that can be told: its permission, its answer when asked, a push service that answers or not. */
function fakeBrowser({
  permission = 'default',
  answer = 'granted',
  pushServiceDown = false,
  subscribed = false,
}: {
  permission?: NotificationPermission;
  answer?: NotificationPermission;
  pushServiceDown?: boolean;
  /** Subscribed on an earlier visit, with the site's key. */
  subscribed?: boolean;
} = {}): FakeBrowser {
  const notification = { permission };
  const requestPermission = jest.fn(() => {
    notification.permission = answer;
    return Promise.resolve(answer);
  });
  const unsubscribe = jest.fn(() => {
    current = null;
    return Promise.resolve(true);
  });
  const made = (key: Uint8Array) => ({
    endpoint: ENDPOINT,
    options: { applicationServerKey: key.slice().buffer },
    toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: P256DH, auth: AUTH } }),
    unsubscribe,
  });
  let current: object | null = subscribed ? made(new Uint8Array(Buffer.from(PUBLIC_KEY, 'base64url'))) : null;
  const subscribe = jest.fn((options: { applicationServerKey: Uint8Array }) => {
    if (pushServiceDown) return Promise.reject(new DOMException('Registration failed', 'AbortError'));
    current = made(options.applicationServerKey);
    return Promise.resolve(current);
  });
  const registration = { pushManager: { subscribe, getSubscription: () => Promise.resolve(current) } };
  const serviceWorker = {
    getRegistration: () => Promise.resolve(registration),
    register: () => Promise.resolve(registration),
    ready: Promise.resolve(registration),
  };
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  Object.defineProperty(window, 'PushManager', { value: function PushManager() {}, configurable: true });
  Object.defineProperty(window, 'Notification', {
    value: Object.assign(notification, { requestPermission }),
    configurable: true,
  });
  return { requestPermission, subscribe, unsubscribe };
}

let api: FakeApi;
/** The server's answer to a PUT; null: it keeps every residence it was sent. */
let subscriptionAnswer: FakeAnswer | null;

beforeEach(async () => {
  window.localStorage.clear();
  window.scrollTo = jest.fn();
  subscriptionAnswer = null;
  api = await startFakeApi({
    '/push/key': () => ({ body: { publicKey: PUBLIC_KEY } }),
    '/push/subscription': () => {
      const last = api.writes.at(-1);
      if (last?.method === 'DELETE') return { status: 204, body: null };
      const body = last?.body as { residences?: unknown } | undefined;
      return subscriptionAnswer ?? { body: { residences: body?.residences } };
    },
    '/push/subscription/renew': () => ({ status: 204, body: null }),
  });
});

afterEach(async () => {
  for (const name of ['PushManager', 'Notification']) Reflect.deleteProperty(window, name);
  Reflect.deleteProperty(navigator, 'serviceWorker');
  Reflect.deleteProperty(navigator, 'userAgent');
  await api.close();
});

const pushWrites = () => api.writes.filter((write) => write.path === '/push/subscription');

describe('« Me prévenir » on a residence’s page', () => {
  it('is not in the server’s page, and asks nothing on arrival', async () => {
    const browser = fakeBrowser();
    const html = renderToString(
      <Provider store={makeStore()}>
        <MemoryRouter>
          <FollowButton id="axonberg" artist="Axonberg" />
        </MemoryRouter>
      </Provider>,
    );
    expect(html).not.toContain('Me prévenir');
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    expect(await screen.findByRole('button', { name: 'Me prévenir', pressed: false })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(api.requests.filter((path) => path.startsWith('/push'))).toEqual([]);
  });

  it('asks the permission on the press, subscribes with the site’s key, tells the server, follows the residence', async () => {
    const browser = fakeBrowser();
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Me prévenir' }));
    expect(await screen.findByText('C’est noté : ce navigateur vous préviendra pour Axonberg.')).toBeInTheDocument();
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: new Uint8Array(Buffer.from(PUBLIC_KEY, 'base64url')),
    });
    expect(pushWrites()).toEqual([
      {
        method: 'PUT',
        path: '/push/subscription',
        body: {
          endpoint: ENDPOINT,
          keys: { p256dh: P256DH, auth: AUTH },
          residences: [{ id: 'axonberg', live: true, replay: true }],
        },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Me prévenir', pressed: true })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'quand l’émission commence' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'quand une nouvelle émission est publiée' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Suivre', pressed: true })).toBeInTheDocument();
    expect(followedIds()).toEqual(['axonberg']);
    expect(JSON.parse(window.localStorage.getItem(PREVENIR_KEY) ?? 'null')).toEqual([
      { id: 'axonberg', live: true, replay: true },
    ]);
  });

  it('sends the whole choice at each change, and DELETE once none is left, ending the subscription', async () => {
    const browser = fakeBrowser();
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Me prévenir' }));
    const live = await screen.findByRole('checkbox', { name: 'quand l’émission commence' });
    fireEvent.click(live);
    await screen.findByText('Choix enregistré pour Axonberg.');
    expect(pushWrites().at(-1)?.body).toEqual({
      endpoint: ENDPOINT,
      keys: { p256dh: P256DH, auth: AUTH },
      residences: [{ id: 'axonberg', live: false, replay: true }],
    });
    expect(live).not.toBeChecked();
    // The permission was asked once, and the subscription made once.
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('checkbox', { name: 'quand une nouvelle émission est publiée' }));
    await screen.findByText('Plus de notification pour Axonberg.');
    expect(pushWrites().at(-1)).toEqual({
      method: 'DELETE',
      path: '/push/subscription',
      body: { endpoint: ENDPOINT, keys: { auth: AUTH } },
    });
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem(PREVENIR_KEY)).toBeNull();
    expect(screen.getByRole('button', { name: 'Me prévenir', pressed: false })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
    // Still followed: only « Me prévenir » was turned off.
    expect(followedIds()).toEqual(['axonberg']);
  });

  it('turns itself off when the residence is no longer followed', async () => {
    const browser = fakeBrowser();
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Me prévenir' }));
    await screen.findByRole('checkbox', { name: 'quand l’émission commence' });
    fireEvent.click(screen.getByRole('button', { name: 'Suivre', pressed: true }));
    await waitFor(() => {
      expect(pushWrites().at(-1)?.method).toBe('DELETE');
    });
    await waitFor(() => {
      expect(browser.unsubscribe).toHaveBeenCalled();
    });
    await waitFor(() => {
      expect(pushChoices()).toEqual([]);
    });
    expect(screen.getByRole('button', { name: 'Me prévenir', pressed: false })).toBeInTheDocument();
  });
});

describe('a residence unfollowed elsewhere', () => {
  it('is told no more once a page with « Me prévenir » opens (a card’s « Suivre » carries none of this)', async () => {
    const browser = fakeBrowser();
    const first = renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Me prévenir' }));
    await screen.findByRole('checkbox', { name: 'quand l’émission commence' });
    first.unmount();
    // As the card's « Suivre » on /residences does: the list alone.
    unfollow('axonberg');
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    await waitFor(() => {
      expect(pushWrites().at(-1)?.method).toBe('DELETE');
    });
    await waitFor(() => {
      expect(pushChoices()).toEqual([]);
    });
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Me prévenir', pressed: false })).toBeInTheDocument();
  });
});

describe('where the browser cannot, one sentence says so', () => {
  const press = async () => {
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Me prévenir' }));
      await Promise.resolve();
    });
  };

  it('a browser with no Push API or no service worker', async () => {
    await press();
    expect(await screen.findByText(PUSH_TEXT.unsupported)).toBeInTheDocument();
    expect(PUSH_TEXT.unsupported).toBe(
      'Ce navigateur ne sait pas recevoir les notifications du site : essayez avec un navigateur à jour, comme Firefox, Chrome, Edge ou Safari.',
    );
    expect(pushChoices()).toEqual([]);
  });

  it('an iPhone’s Safari outside the installed site', async () => {
    Object.defineProperty(navigator, 'userAgent', {
      value:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile Safari/604.1',
      configurable: true,
    });
    await press();
    expect(
      await screen.findByText(
        'Sur iPhone et iPad, les notifications passent par le site ajouté à l’écran d’accueil : touchez Partager, puis « Sur l’écran d’accueil », et ouvrez le site depuis son icône.',
      ),
    ).toBeInTheDocument();
  });

  it('notifications refused by the visitor, now or before (then not asked again)', async () => {
    const browser = fakeBrowser({ permission: 'denied' });
    await press();
    expect(
      await screen.findByText(
        'Les notifications de ce site sont bloquées dans votre navigateur : autorisez-les dans ses réglages pour ce site, puis appuyez de nouveau sur « Me prévenir ».',
      ),
    ).toBeInTheDocument();
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(pushWrites()).toEqual([]);
  });

  it('the question left unanswered', async () => {
    fakeBrowser({ answer: 'default' });
    await press();
    expect(await screen.findByText(PUSH_TEXT.dismissed)).toBeInTheDocument();
  });

  it('the browser’s push service out of reach', async () => {
    fakeBrowser({ pushServiceDown: true });
    await press();
    expect(
      await screen.findByText('Le service de notifications de votre navigateur ne répond pas : réessayez plus tard.'),
    ).toBeInTheDocument();
    expect(pushChoices()).toEqual([]);
  });

  it('the server’s refusal, in its own words', async () => {
    fakeBrowser();
    subscriptionAnswer = {
      status: 429,
      body: { error: 'too_many', message: 'Trop d’abonnements depuis ce réseau aujourd’hui : réessayez demain.' },
    };
    await press();
    expect(
      await screen.findByText('Trop d’abonnements depuis ce réseau aujourd’hui : réessayez demain.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Me prévenir', pressed: false })).toBeInTheDocument();
    expect(pushChoices()).toEqual([]);
  });

  it('a site that sends no notifications', async () => {
    fakeBrowser();
    api.set('/push/key', () => ({
      status: 503,
      body: { error: 'push_off', message: 'Le site n’envoie pas de notifications pour le moment.' },
    }));
    await press();
    expect(await screen.findByText('Le site n’envoie pas de notifications pour le moment.')).toBeInTheDocument();
  });

  it('knows an installed iPhone site from Safari, and an iPad that says Macintosh', () => {
    const iPad = {
      navigator: { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', maxTouchPoints: 5 },
    };
    expect(pushSupport(iPad)).toBe('home-screen');
    expect(pushSupport({ ...iPad, navigator: { ...iPad.navigator, maxTouchPoints: 0 } })).toBe('unsupported');
    expect(pushSupport({ navigator: { ...iPad.navigator, standalone: true } })).toBe('unsupported');
    expect(
      pushSupport({ ...iPad, navigator: { ...iPad.navigator, serviceWorker: {} }, PushManager: {}, Notification: {} }),
    ).toBe('ok');
  });
});

describe('« Me prévenir » in « Mes résidences »', () => {
  it('names each residence’s button, and the section on air has no button of the same name', async () => {
    fakeBrowser();
    setFollowedIds(['axonberg', 'la-brume']);
    renderWithProviders(<FollowedPage />, { route: '/mes-residences' });
    const list = await screen.findByRole('list', { name: 'Vos résidences' });
    expect(await within(list).findByRole('button', { name: 'Me prévenir : Axonberg' })).toBeInTheDocument();
    fireEvent.click(within(list).getByRole('button', { name: 'Me prévenir : La Brume' }));
    const choices = await within(list).findByRole('group', { name: 'Me prévenir pour La Brume' });
    expect(within(choices).getAllByRole('checkbox', { checked: true })).toHaveLength(2);
    expect(pushWrites().at(-1)?.body).toMatchObject({ residences: [{ id: 'la-brume', live: true, replay: true }] });
    const section = screen.getByRole('region', { name: 'Quand elles passent en direct' });
    expect(within(section).queryByRole('button')).toBeNull();
    expect(within(section).getByRole('link', { name: 'Ce que le site garde pour cela' })).toHaveAttribute(
      'href',
      '/a-propos#confidentialite',
    );
  });
});

describe('a visit, once a month', () => {
  const DAY = 24 * 3600_000;
  const renewals = () => api.writes.filter((write) => write.path === '/push/subscription/renew');

  /** A browser that turned « Me prévenir » on for Axonberg, and saved it `daysAgo` days ago. */
  function keptBefore(daysAgo: number | null, permission: NotificationPermission = 'granted') {
    const browser = fakeBrowser({ permission, subscribed: true });
    setFollowedIds(['axonberg']);
    setPushChoices([{ id: 'axonberg', live: false, replay: true }]);
    if (daysAgo !== null) window.localStorage.setItem(RENEWED_KEY, String(Date.now() - daysAgo * DAY));
    return browser;
  }

  /** A residence's page shown, its renewal, if any, done, and left. */
  async function visit(): Promise<void> {
    const page = renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    expect(await screen.findByRole('button', { name: 'Me prévenir', pressed: true })).toBeInTheDocument();
    await act(async () => {
      await renewIfDue();
    });
    page.unmount();
  }

  it('renews the subscription kept, with its endpoint and secret alone, asking the visitor nothing', async () => {
    const browser = keptBefore(31);
    const before = Date.now();
    await visit();
    expect(renewals()).toEqual([
      { method: 'POST', path: '/push/subscription/renew', body: { endpoint: ENDPOINT, keys: { auth: AUTH } } },
    ]);
    expect(Number(window.localStorage.getItem(RENEWED_KEY))).toBeGreaterThanOrEqual(before);
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(pushWrites()).toEqual([]);
    // Not again within the month: another page, the same day.
    await visit();
    expect(renewals()).toHaveLength(1);
  });

  it('asks nothing within 30 days of the last save, nor without the permission already given', async () => {
    keptBefore(29);
    await visit();
    expect(RENEW_EVERY_MS).toBe(30 * DAY);
    expect(renewals()).toEqual([]);
    window.localStorage.clear();
    const browser = keptBefore(null, 'default');
    await visit();
    expect(renewals()).toEqual([]);
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('saves the whole choice again when the server no longer keeps the subscription (past its time)', async () => {
    keptBefore(200);
    api.set('/push/subscription/renew', () => ({
      status: 404,
      body: {
        error: 'not_kept',
        message:
          'Cet abonnement aux notifications n’est pas enregistré sur ce site : activez de nouveau « Me prévenir ».',
      },
    }));
    const before = Date.now();
    await visit();
    expect(renewals()).toHaveLength(1);
    expect(pushWrites()).toEqual([
      {
        method: 'PUT',
        path: '/push/subscription',
        body: {
          endpoint: ENDPOINT,
          keys: { p256dh: P256DH, auth: AUTH },
          residences: [{ id: 'axonberg', live: false, replay: true }],
        },
      },
    ]);
    expect(Number(window.localStorage.getItem(RENEWED_KEY))).toBeGreaterThanOrEqual(before);
    expect(pushChoices()).toEqual([{ id: 'axonberg', live: false, replay: true }]);
  });

  it('is remembered from the press, and forgotten when « Me prévenir » is off', async () => {
    fakeBrowser();
    renderWithProviders(<FollowButton id="axonberg" artist="Axonberg" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Me prévenir' }));
    await screen.findByText('C’est noté : ce navigateur vous préviendra pour Axonberg.');
    expect(window.localStorage.getItem(RENEWED_KEY)).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Me prévenir', pressed: true }));
    await screen.findByText('Plus de notification pour Axonberg.');
    expect(window.localStorage.getItem(RENEWED_KEY)).toBeNull();
    expect(renewals()).toEqual([]);
  });
});
