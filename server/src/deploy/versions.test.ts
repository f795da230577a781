import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { ArchiveRefused } from './archive';
import { createVersionStore, partDir } from './versions';

// A part's versions side by side and the switch of the live one (docs/deploy.md, « Versions and
// the switch »): what the server serves follows the switch at once, and goes back on a rollback.

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'versions-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A part's dist/ whose remote entry says which build it is, packed as the deploy command packs it. */
async function build(name: string): Promise<Buffer> {
  const dist = mkdtempSync(join(root, 'dist-'));
  writeFileSync(join(dist, 'remoteEntry.js'), `// ${name}`);
  mkdirSync(join(dist, 'server'));
  writeFileSync(join(dist, 'server', 'remoteEntry.js'), `exports.build = '${name}';`);
  const packed = Buffer.from(await tar.c({ cwd: dist, gzip: true }, ['.']).concat());
  rmSync(dist, { recursive: true });
  return packed;
}

let clock = Date.parse('2026-11-25T10:00:00Z');
const store = () =>
  createVersionStore({
    dir: partDir(root, 'radio'),
    keep: 3,
    now: () => new Date((clock += 1000)),
  });

const served = (liveDir: string) => readFileSync(join(liveDir, 'remoteEntry.js'), 'utf8');

describe('a part’s versions', () => {
  it('serves nothing before the first switch, then the version switched to, at once', async () => {
    const radio = store();
    const first = await radio.add(await build('v1'), { team: 'radio', commit: 'aaa111' });
    expect(radio.live()).toBeNull();
    expect(existsSync(radio.liveDir)).toBe(false);
    radio.switchTo(first.id);
    expect(served(radio.liveDir)).toBe('// v1');
    expect(radio.live()).toEqual({
      id: first.id,
      receivedAt: '2026-11-25T10:00:01.000Z',
      about: { team: 'radio', commit: 'aaa111' },
    });

    const second = await radio.add(await build('v2'), { team: 'radio' });
    // Received, checked, not live: visitors still get v1.
    expect(served(radio.liveDir)).toBe('// v1');
    radio.switchTo(second.id);
    expect(served(radio.liveDir)).toBe('// v2');
  });

  it('rolls back along the versions that were live, and says when there is none left', async () => {
    const radio = store();
    const ids: string[] = [];
    for (const name of ['v1', 'v2', 'v3']) {
      const { id } = await radio.add(await build(name), {});
      radio.switchTo(id);
      ids.push(id);
    }
    expect(radio.rollback()).toBe(ids[1]);
    expect(served(radio.liveDir)).toBe('// v2');
    expect(radio.rollback()).toBe(ids[0]);
    expect(served(radio.liveDir)).toBe('// v1');
    expect(radio.rollback()).toBeNull();
    expect(served(radio.liveDir)).toBe('// v1');
  });

  it('keeps the last versions and the live one, and forgets the rest on disk', async () => {
    const radio = store();
    const first = await radio.add(await build('v1'), {});
    radio.switchTo(first.id);
    for (const name of ['v2', 'v3', 'v4', 'v5']) await radio.add(await build(name), {});
    const last = await radio.add(await build('v6'), {});
    radio.switchTo(last.id);
    // Kept: the last three received (v4, v5, v6); v1 was live until this switch, and goes now.
    expect(radio.list().map((record) => record.id)).toHaveLength(3);
    expect(readdirSync(join(root, 'radio', 'versions')).sort()).toEqual(
      radio
        .list()
        .map((r) => r.id)
        .sort(),
    );
    expect(served(radio.liveDir)).toBe('// v6');
  });

  it('keeps the live version when newer ones are received and never switched to', async () => {
    const radio = store();
    const first = await radio.add(await build('v1'), {});
    radio.switchTo(first.id);
    for (const name of ['v2', 'v3', 'v4', 'v5']) await radio.add(await build(name), {});
    const fifth = radio.list().at(-1);
    radio.switchTo(fifth?.id ?? '');
    expect(radio.list().map((r) => r.id)).not.toContain(first.id);
    expect(radio.rollback()).toBeNull();
    expect(served(radio.liveDir)).toBe('// v5');
  });

  it('leaves the live version and the history as they were when an archive is refused', async () => {
    const radio = store();
    const first = await radio.add(await build('v1'), {});
    radio.switchTo(first.id);
    await expect(radio.add(Buffer.from('pas une archive'.repeat(50)), {})).rejects.toBeInstanceOf(ArchiveRefused);
    expect(radio.list().map((record) => record.id)).toEqual([first.id]);
    expect(served(radio.liveDir)).toBe('// v1');
    expect(() => {
      radio.switchTo('nexiste-pas');
    }).toThrow('version inconnue : nexiste-pas');
  });
});
