/*
 * Whether this browser can get « Me prévenir »'s notifications, and the sentence for each case where it
 * cannot (docs/follow.md, « Me prévenir »): read by the button and by « Mes résidences ».
 */

/** What the page says where the browser cannot, one sentence each. */
export const PUSH_TEXT = {
  unsupported:
    'Ce navigateur ne sait pas recevoir les notifications du site : essayez avec un navigateur à jour, comme Firefox, Chrome, Edge ou Safari.',
  homeScreen:
    'Sur iPhone et iPad, les notifications passent par le site ajouté à l’écran d’accueil : touchez Partager, puis « Sur l’écran d’accueil », et ouvrez le site depuis son icône.',
  denied:
    'Les notifications de ce site sont bloquées dans votre navigateur : autorisez-les dans ses réglages pour ce site, puis appuyez de nouveau sur « Me prévenir ».',
  dismissed:
    'Votre navigateur n’a pas eu votre accord : appuyez de nouveau sur « Me prévenir » et acceptez les notifications.',
  noWorker: 'Le site n’a pas pu s’installer dans ce navigateur pour vous prévenir : rechargez la page, puis réessayez.',
  unreachable: 'Le service de notifications de votre navigateur ne répond pas : réessayez plus tard.',
  refused: 'Ce navigateur ne garde pas vos choix : impossible de vous prévenir ici.',
  badKey: 'Le site ne peut pas envoyer de notifications pour le moment : réessayez plus tard.',
} as const;

/** Whether this browser can be told: yes, only from the home screen (iOS, iPadOS), or not at all. */
export type PushSupport = 'ok' | 'home-screen' | 'unsupported';

/** What of the browser `pushSupport` reads (the window, in the page). */
export interface PushEnvironment {
  navigator: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> & { serviceWorker?: unknown; standalone?: boolean };
  PushManager?: unknown;
  Notification?: unknown;
  matchMedia?: (query: string) => { matches: boolean };
}

/** An iPhone, an iPod or an iPad (which says « Macintosh » but has a touch screen). */
function appleMobile(env: PushEnvironment): boolean {
  const agent = env.navigator.userAgent;
  return /iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && env.navigator.maxTouchPoints > 1);
}

export function pushSupport(env: PushEnvironment = window): PushSupport {
  const capable =
    env.navigator.serviceWorker !== undefined && env.PushManager !== undefined && env.Notification !== undefined;
  if (capable) return 'ok';
  // Safari on iOS 16.4 and later has the Push API only in a site opened from the home screen.
  const installed =
    env.navigator.standalone === true || env.matchMedia?.('(display-mode: standalone)').matches === true;
  return appleMobile(env) && !installed ? 'home-screen' : 'unsupported';
}
