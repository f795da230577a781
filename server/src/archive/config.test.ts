import { readApiConfig } from '../api/env';
import { readArchiveConfig } from './config';

describe('the live archives’ settings (docs/settings.md, « Listening back »)', () => {
  it('are off by default on a deployed site, and keep one residence’s shows under the demo', () => {
    expect(readArchiveConfig({ SITE_ORIGIN: 'https://radio.example.org' })).toMatchObject({ mode: 'off', demo: false });
    expect(readArchiveConfig({ SCHEDULE_ICS_URLS: 'https://calendar.example/radio.ics' })).toMatchObject({
      mode: 'off',
      demo: false,
    });
    expect(readArchiveConfig({})).toMatchObject({ mode: 'chosen', demo: true });
    expect(readArchiveConfig({ LIVE_ARCHIVE: 'off' })).toMatchObject({ mode: 'off', demo: false });
  });

  it('read the days, the bytes and the free space kept', () => {
    expect(
      readArchiveConfig({
        LIVE_ARCHIVE: 'all',
        LIVE_ARCHIVE_DAYS: '30',
        LIVE_ARCHIVE_MAX_MB: '500',
        LIVE_ARCHIVE_FREE_MB: '2048',
        LIVE_ARCHIVE_DIR: '/srv/collectif/archives',
      }),
    ).toMatchObject({
      mode: 'all',
      dir: '/srv/collectif/archives',
      keepMs: 30 * 24 * 3600_000,
      maxBytes: 500_000_000,
      reserveBytes: 2_048_000_000,
    });
    expect(readArchiveConfig({})).toMatchObject({ keepMs: 90 * 24 * 3600_000, maxBytes: 20_000_000_000 });
    // By default beside the timeline's folder, on its disk.
    expect(readArchiveConfig({ LIVE_TIMESHIFT_DIR: '/srv/essai/direct' }).dir).toBe('/srv/essai/direct-archives');
  });

  it('refuse a bad value in French, naming the variable', () => {
    expect(() => readApiConfig({ LIVE_ARCHIVE: 'toujours' })).toThrow(/LIVE_ARCHIVE.*off, chosen, all/);
    expect(() => readApiConfig({ LIVE_ARCHIVE_DAYS: '0' })).toThrow(/LIVE_ARCHIVE_DAYS.*de 1 à 3650/);
    expect(() => readApiConfig({ LIVE_ARCHIVE_DIR: '/' })).toThrow(/LIVE_ARCHIVE_DIR.*pas la racine/);
  });
});
