import { RADIO_SETTINGS_ID, resetRadioSettings, siteConfig, type Rendition } from '@collectif/shared';
import {
  chatUrl,
  configurePlayer,
  currentRendition,
  liveStreamUrl,
  pickRendition,
  QUALITY_KEY,
  rememberQuality,
  storedQuality,
  timelineOffered,
  resolveImageUrl,
  resolveMediaUrl,
  resolveStreamAnswer,
} from './config';
import { timelinePlaylist } from '../timeline/playlist';
import { DEFAULT_COVER } from '@collectif/shared/tokens';

afterEach(() => {
  configurePlayer({ apiBase: siteConfig.radio.apiBase });
  document.getElementById(RADIO_SETTINGS_ID)?.remove();
  resetRadioSettings();
  localStorage.clear();
  Reflect.deleteProperty(navigator, 'connection');
});

/** The settings the server writes into the page (#radio-config), read again. */
function pageSettings(settings: Record<string, unknown>): void {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = RADIO_SETTINGS_ID;
  script.textContent = JSON.stringify(settings);
  document.head.append(script);
  resetRadioSettings();
}

describe('player configuration', () => {
  it('on the site, relative addresses are the site’s own', () => {
    configurePlayer({ apiBase: '/api' });
    expect(liveStreamUrl()).toBe(`${window.location.origin}/api/demo/live.mp3`);
    expect(resolveImageUrl(DEFAULT_COVER)).toBe(`${window.location.origin}${DEFAULT_COVER}`);
  });

  it('for a partner page, relative addresses from the API are read against the API’s origin', () => {
    configurePlayer({ apiBase: 'https://radio.example.org/api' });
    expect(resolveMediaUrl('/api/demo/replays/x.mp3')).toBe('https://radio.example.org/api/demo/replays/x.mp3');
    expect(liveStreamUrl()).toBe('https://radio.example.org/api/demo/live.mp3');
    expect(resolveMediaUrl('https://cdn.example.net/a.m3u8')).toBe('https://cdn.example.net/a.m3u8');
  });

  it('a stream address of its own replaces the configured one', () => {
    configurePlayer({ apiBase: 'https://radio.example.org/api', streamUrl: 'https://flux.example.org/live.mp3' });
    expect(liveStreamUrl()).toBe('https://flux.example.org/live.mp3');
  });

  it('refuses addresses that are not http(s) media', () => {
    expect(resolveMediaUrl('javascript:alert(1)')).toBeNull();
    expect(resolveMediaUrl('data:audio/mpeg;base64,AAAA')).toBeNull();
    expect(resolveMediaUrl('   ')).toBeNull();
    expect(resolveImageUrl('javascript:alert(1)')).toBeNull();
    expect(resolveImageUrl('')).toBeNull();
    expect(resolveImageUrl(null)).toBeNull();
  });

  it('reads a track answer only when it is one address, whatever else a broken server sends', () => {
    configurePlayer({ apiBase: 'https://radio.example.org/api' });
    expect(resolveStreamAnswer('/api/demo/replays/a.mp3\n')).toBe('https://radio.example.org/api/demo/replays/a.mp3');
    expect(resolveStreamAnswer('https://cdn.example.net/t/1.m3u8?sig=a%20b')).toBe(
      'https://cdn.example.net/t/1.m3u8?sig=a%20b',
    );
    expect(resolveStreamAnswer('<!doctype html><html><h1>Maintenance</h1></html>')).toBeNull();
    expect(resolveStreamAnswer('{"url": 1}')).toBeNull();
    expect(resolveStreamAnswer('Service indisponible')).toBeNull();
    expect(resolveStreamAnswer('javascript:alert(1)')).toBeNull();
    expect(resolveStreamAnswer({ url: '/a.mp3' })).toBeNull();
    expect(resolveStreamAnswer(undefined)).toBeNull();
  });

  it('the chat address names the collective’s room', () => {
    expect(chatUrl()).toBe(siteConfig.radio.chatEmbedUrl.replace('{room}', siteConfig.radio.chatRoom));
    configurePlayer({ chatEmbedUrl: 'https://chat.example.org/{room}?embed', chatRoom: 'salle à part' });
    expect(chatUrl()).toBe('https://chat.example.org/salle%20%C3%A0%20part?embed');
  });

  it('plays the stream and opens the chat of the settings the server wrote into the page', () => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = RADIO_SETTINGS_ID;
    script.textContent = JSON.stringify({
      liveStreamUrl: 'https://icecast.example.net/direct.mp3',
      chatEmbedUrl: 'https://salons.example.net/{room}?embed',
      chatRoom: 'salon du soir',
    });
    document.head.append(script);
    resetRadioSettings();
    configurePlayer({ apiBase: '/api' });
    expect(liveStreamUrl()).toBe('https://icecast.example.net/direct.mp3');
    expect(chatUrl()).toBe('https://salons.example.net/salon%20du%20soir?embed');
    // A partner's own stream address still wins.
    configurePlayer({ apiBase: '/api', streamUrl: 'https://flux.example.org/live.mp3' });
    expect(liveStreamUrl()).toBe('https://flux.example.org/live.mp3');
  });
});

describe('« Qualité » (docs/player.md, « Quality »)', () => {
  const normale: Rendition = { id: 'normale', label: 'Normale', url: '/api/demo/live.mp3', bitrate: 128, codec: 'mp3' };
  const econome: Rendition = {
    id: 'econome',
    label: 'Économe',
    url: '/api/demo/live-econome.mp3',
    bitrate: 48,
    codec: 'mp3',
  };
  const moyenne: Rendition = { id: 'moyenne', label: 'Moyenne', url: '/moyenne.mp3', bitrate: 96, codec: 'mp3' };
  const both = [normale, moyenne, econome];

  it('plays the choice kept on the device, when the radio still has it', () => {
    expect(pickRendition(both, 'econome')).toBe(econome);
    expect(pickRendition(both, 'moyenne', { saveData: true })).toBe(moyenne);
    expect(pickRendition(both, 'disparue')).toBe(normale);
  });

  it('without a choice, the lightest when the browser saves data or says its connection is slow', () => {
    expect(pickRendition(both, null)).toBe(normale);
    expect(pickRendition(both, null, { saveData: true })).toBe(econome);
    for (const effectiveType of ['slow-2g', '2g', '3g'])
      expect(pickRendition(both, null, { effectiveType })).toBe(econome);
    expect(pickRendition(both, null, { effectiveType: '4g', saveData: false })).toBe(normale);
    expect(pickRendition([normale], null, { saveData: true })).toBe(normale);
    // An older shell's settings name none: the live stream alone (docs/contract.md, 3.2.0).
    expect(pickRendition([], 'econome', { saveData: true })).toBeUndefined();
  });

  it('keeps the choice on the device, and ignores a stored value that is no rendition’s name', () => {
    rememberQuality('econome');
    expect(localStorage.getItem(QUALITY_KEY)).toBe('econome');
    expect(storedQuality()).toBe('econome');
    for (const tampered of ['<img src=x onerror=alert(1)>', 'ECONOME', 'a'.repeat(33), '', 'econome\n', '../normale']) {
      localStorage.setItem(QUALITY_KEY, tampered);
      expect(storedQuality()).toBeNull();
    }
  });

  it('the live edge plays the chosen rendition: kept, else the connection’s, else the normal one', () => {
    pageSettings({
      liveStreamUrl: '/api/demo/live.mp3',
      renditions: [normale, econome],
      timeshift: { playlist: '/direct/live.m3u8', hours: 4 },
    });
    configurePlayer({ apiBase: 'https://radio.example.org/api' });
    expect(liveStreamUrl()).toBe('https://radio.example.org/api/demo/live.mp3');
    Object.defineProperty(navigator, 'connection', { configurable: true, value: { saveData: true } });
    expect(currentRendition()).toEqual(econome);
    expect(liveStreamUrl()).toBe('https://radio.example.org/api/demo/live-econome.mp3');
    // A tampered choice is ignored: the connection decides.
    localStorage.setItem(QUALITY_KEY, 'javascript:alert(1)');
    expect(liveStreamUrl()).toBe('https://radio.example.org/api/demo/live-econome.mp3');
    rememberQuality('normale');
    expect(liveStreamUrl()).toBe('https://radio.example.org/api/demo/live.mp3');
    // A partner's own stream is the only one.
    configurePlayer({ apiBase: 'https://radio.example.org/api', streamUrl: 'https://flux.example.org/live.mp3' });
    rememberQuality('econome');
    expect(liveStreamUrl()).toBe('https://flux.example.org/live.mp3');
  });

  it('the timeline is offered on the site when the radio keeps hours, to a partner only when asked', () => {
    configurePlayer({ apiBase: 'https://radio.example.org/api' });
    expect([timelineOffered(), timelinePlaylist()]).toEqual([false, null]);
    pageSettings({ liveStreamUrl: '/api/demo/live.mp3', timeshift: { playlist: '/direct/live.m3u8', hours: 4 } });
    expect([timelineOffered(), timelinePlaylist()]).toEqual([true, 'https://radio.example.org/direct/live.m3u8']);
    configurePlayer({ apiBase: 'https://radio.example.org/api', timeline: false });
    expect([timelineOffered(), timelinePlaylist()]).toEqual([false, null]);
    configurePlayer({ apiBase: 'https://radio.example.org/api', timeline: true });
    expect([timelineOffered(), timelinePlaylist()]).toEqual([true, 'https://radio.example.org/direct/live.m3u8']);
  });
});
