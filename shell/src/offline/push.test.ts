import { notificationTarget, readPushMessage, sitePath } from './push';

const ORIGIN = 'https://collectif-garonne.example';

const LIVE = {
  v: 1,
  kind: 'live',
  title: 'Axonberg est en direct',
  body: 'Synapses, en ce moment sur Collectif Garonne',
  url: '/?ecouter=direct',
  icon: '/assets/residences/axonberg-card.webp',
  tag: 'direct-axonberg',
};
const REPLAY = {
  v: 1,
  kind: 'replay',
  title: 'Nouvelle émission : Synapses #12',
  body: 'Axonberg',
  url: '/emissions/axonberg-synapses-12',
  tag: 'emission-axonberg-synapses-12',
};

const read = (message: unknown) => readPushMessage(JSON.stringify(message), ORIGIN);

describe('a push message', () => {
  it('is shown as the server sent it: a show starting, a new episode (no icon)', () => {
    expect(read(LIVE)).toEqual({
      kind: 'live',
      title: 'Axonberg est en direct',
      body: 'Synapses, en ce moment sur Collectif Garonne',
      url: '/?ecouter=direct',
      icon: '/assets/residences/axonberg-card.webp',
      tag: 'direct-axonberg',
    });
    expect(read(REPLAY)).toEqual({
      kind: 'replay',
      title: 'Nouvelle émission : Synapses #12',
      body: 'Axonberg',
      url: '/emissions/axonberg-synapses-12',
      tag: 'emission-axonberg-synapses-12',
    });
  });

  it('shows nothing for what is not JSON, not an object, or none at all', () => {
    expect(readPushMessage(null, ORIGIN)).toBeNull();
    expect(readPushMessage('Axonberg est en direct', ORIGIN)).toBeNull();
    expect(readPushMessage('[1]', ORIGIN)).toBeNull();
    expect(readPushMessage('null', ORIGIN)).toBeNull();
    expect(readPushMessage(`"${'a'.repeat(5000)}"`, ORIGIN)).toBeNull();
  });

  it('shows nothing for another version, kind, or a field more or less', () => {
    expect(read({ ...LIVE, v: 2 })).toBeNull();
    expect(read({ ...LIVE, v: '1' })).toBeNull();
    expect(read({ ...LIVE, kind: 'event' })).toBeNull();
    expect(read({ ...LIVE, actions: [] })).toBeNull();
    const { tag: _tag, ...untagged } = LIVE;
    expect(read(untagged)).toBeNull();
  });

  it('shows nothing for text too long or empty', () => {
    expect(read({ ...LIVE, title: 'a'.repeat(120) })).not.toBeNull();
    expect(read({ ...LIVE, title: 'a'.repeat(121) })).toBeNull();
    expect(read({ ...LIVE, title: '' })).toBeNull();
    expect(read({ ...LIVE, body: 'a'.repeat(241) })).toBeNull();
    expect(read({ ...LIVE, tag: 'a'.repeat(65) })).toBeNull();
    expect(read({ ...LIVE, title: 42 })).toBeNull();
  });

  it('shows nothing that would lead to another site', () => {
    for (const url of [
      'https://ailleurs.example/',
      '//ailleurs.example/',
      '/\\ailleurs.example/',
      'javascript:alert(1)',
      'emissions/axonberg',
      '/\nailleurs',
      '',
    ]) {
      expect(read({ ...LIVE, url })).toBeNull();
      expect(read({ ...LIVE, icon: url })).toBeNull();
    }
  });
});

describe('a click on a notification', () => {
  it('goes to its path on the site, or to the home for anything else', () => {
    expect(notificationTarget({ url: '/emissions/axonberg-synapses-12' }, ORIGIN)).toBe(
      `${ORIGIN}/emissions/axonberg-synapses-12`,
    );
    expect(notificationTarget({ url: '//ailleurs.example/' }, ORIGIN)).toBe(`${ORIGIN}/`);
    expect(notificationTarget(null, ORIGIN)).toBe(`${ORIGIN}/`);
    expect(sitePath('/?ecouter=direct', ORIGIN)).toBe(true);
  });
});
