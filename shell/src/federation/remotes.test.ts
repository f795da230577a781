import { parseRemotesConfig, readRemotesConfig, taskPerStep } from './remotes';

describe('parseRemotesConfig', () => {
  const valid = {
    player: '/mf-player/mf-manifest.json',
    radio: 'https://cdn.example.org/mf-radio/mf-manifest.json',
    label: '/mf-label/mf-manifest.json',
    about: '/mf-about/mf-manifest.json',
    admin: '/mf-admin/mf-manifest.json',
  };

  it('accepts a map of every remote to its manifest URL', () => {
    expect(parseRemotesConfig(valid)).toEqual(valid);
  });

  it('names the remote that is missing', () => {
    const { label: _label, ...rest } = valid;
    expect(() => parseRemotesConfig(rest)).toThrow('« label »');
  });

  it('rejects what is not an object', () => {
    expect(() => parseRemotesConfig('radio')).toThrow('objet attendu');
    expect(() => parseRemotesConfig(null)).toThrow('objet attendu');
  });
});

describe('readRemotesConfig', () => {
  const map = {
    player: '/mf-player/mf-manifest.json',
    radio: '/mf-radio/mf-manifest.json',
    label: '/mf-label/mf-manifest.json',
    about: '/mf-about/mf-manifest.json',
    admin: '/mf-admin/mf-manifest.json',
  };

  function page(inline: string): Document {
    const doc = document.implementation.createHTMLDocument('');
    doc.head.innerHTML = `<script type="application/json" id="remotes-config">${inline}</script>`;
    return doc;
  }

  it('takes the map the server wrote into the page', async () => {
    await expect(readRemotesConfig(page(JSON.stringify(map)))).resolves.toEqual(map);
  });

  it('says which document is broken', async () => {
    await expect(readRemotesConfig(page('{"player":'))).rejects.toThrow(
      'Configuration des modules illisible (#remotes-config)',
    );
    await expect(readRemotesConfig(page('{"player":"/p.json"}'))).rejects.toThrow('« radio »');
  });
});

describe('a remote’s container', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('starts in a task after the one its entry arrived in, with what the runtime gave it', async () => {
    jest.useFakeTimers();
    const start = taskPerStep.beforeInitContainer;
    if (start === undefined) throw new Error('aucune étape avant le conteneur');
    const given = { shareScope: {}, initScope: [] } as unknown as Parameters<typeof start>[0];
    let started: unknown = null;
    void Promise.resolve(start(given)).then((args) => {
      started = args;
    });
    await Promise.resolve();
    await Promise.resolve();
    // Still in the entry's task: its microtasks have run, the container has not started.
    expect(started).toBeNull();
    await jest.advanceTimersByTimeAsync(0);
    expect(started).toBe(given);
  });
});
