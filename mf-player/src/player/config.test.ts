import { RADIO_SETTINGS_ID, resetRadioSettings, siteConfig } from '@collectif/shared';
import {
  chatUrl,
  configurePlayer,
  liveStreamUrl,
  resolveImageUrl,
  resolveMediaUrl,
  resolveStreamAnswer,
} from './config';
import { DEFAULT_COVER } from '@collectif/shared/tokens';

afterEach(() => {
  configurePlayer({ apiBase: siteConfig.radio.apiBase });
  document.getElementById(RADIO_SETTINGS_ID)?.remove();
  resetRadioSettings();
});

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
