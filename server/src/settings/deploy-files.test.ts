import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtServerArgs, SERVER_ENV } from '../../../scripts/server-command.mjs';
import { workspaceRoot } from './config';
import { fileVariables } from './settings';

/**
 * deploy/'s files agree with one another (docs/deploy.md): the systemd unit lets the service write
 * the three folders deploy/site.env.example sets, and nothing else; REDIS_URL there reaches Redis on
 * loopback as the ACL user deploy/redis-collectif.acl defines, the only one it lets in.
 */

const deployFile = (name: string): string => readFileSync(join(workspaceRoot, 'deploy', name), 'utf8');

/** The unit's directives, each with its values (a directive given twice adds to the first). */
function unitDirectives(text: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z]+)=(.*)$/.exec(line);
    if (match === null) continue;
    const [, name = '', value = ''] = match;
    directives.set(name, [...(directives.get(name) ?? []), ...value.trim().split(/\s+/).filter(Boolean)]);
  }
  return directives;
}

const settings = new Map(
  fileVariables(deployFile('site.env.example'))
    .filter(({ commented }) => !commented)
    .map(({ name, value }) => [name, value]),
);

describe('deploy/collectif@.service and deploy/site.env.example', () => {
  const unit = unitDirectives(deployFile('collectif@.service'));

  it('let the service write DEPLOY_ROOT, CONTENT_DIR, LIVE_TIMESHIFT_DIR and LIVE_ARCHIVE_DIR, and nothing else', () => {
    const folders = ['DEPLOY_ROOT', 'CONTENT_DIR', 'LIVE_TIMESHIFT_DIR', 'LIVE_ARCHIVE_DIR'].map((name) =>
      settings.get(name),
    );
    expect(folders.every((folder) => folder?.startsWith('/') === true)).toBe(true);
    // Written without "-": a folder that does not exist stops the unit at start, not a save later.
    expect([...(unit.get('ReadWritePaths') ?? [])].sort()).toEqual([...folders].sort());
    // Everything else read-only, /tmp the service's own, and no folder systemd would make writable.
    expect(unit.get('ProtectSystem')).toEqual(['strict']);
    expect(unit.get('ProtectHome')).toEqual(['yes']);
    expect(unit.get('PrivateTmp')).toEqual(['yes']);
    const writable = /^(ReadWriteDirectories|StateDirectory|CacheDirectory|LogsDirectory|RuntimeDirectory|BindPaths)$/;
    expect([...unit.keys()].filter((name) => writable.test(name))).toEqual([]);
  });

  it('start the built server as every start of it does (scripts/server-command.mjs): its flags, its environment', () => {
    // docs/rendering.md, « Memory »: the heap's cap and glibc's arenas, the same in production as measured.
    // docs/deploy.md, « The server, built »: the project's Node 24, never opening its inspector on SIGUSR1.
    const flags = builtServerArgs().slice(0, -1);
    const [directory = ''] = unit.get('WorkingDirectory') ?? [];
    expect(directory).toMatch(/^\//);
    expect(unit.get('ExecStart')).toEqual([`${directory}/node_modules/.bin/node`, ...flags, 'server/dist/main.js']);
    expect(unit.get('ExecStart')).toContain('--disable-sigusr1');
    expect(Object.keys(SERVER_ENV).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(SERVER_ENV))
      expect(unit.get('Environment')).toContain(`${name}=${value}`);
  });
});

describe('deploy/site.env.example, deploy/redis.conf and deploy/redis-collectif.acl', () => {
  const acl = deployFile('redis-collectif.acl')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/));

  it('reach Redis on loopback as the site’s ACL user, the default user being off', () => {
    const url = new URL(settings.get('REDIS_URL') ?? '');
    expect([url.protocol, url.hostname, url.username]).toEqual(['redis:', '127.0.0.1', 'collectif']);
    expect(url.pathname).toBe('');

    const users = new Map(acl.map(([keyword, name, ...rules]) => [`${keyword ?? ''} ${name ?? ''}`, rules]));
    expect([...users.keys()]).toEqual(['user default', 'user collectif']);
    expect(users.get('user default')).toContain('off');
    expect(users.get('user default')).not.toContain('on');
    const site = users.get('user collectif') ?? [];
    expect(site).toEqual(expect.arrayContaining(['on', '#PASSWORD_SHA256', '~collectif:*', '&collectif:*', '-@all']));
    // No other key, channel or command group than the site's own.
    expect(site.filter((rule) => /^[~&%]/.test(rule))).toEqual(['~collectif:*', '&collectif:*']);
    expect(site.filter((rule) => rule.startsWith('+@') || rule === 'allcommands' || rule === 'allkeys')).toEqual([]);

    const conf = deployFile('redis.conf');
    expect(/^bind (.*)$/m.exec(conf)?.[1]?.split(/\s+/)).toEqual(['127.0.0.1', '-::1']);
    expect(conf).toMatch(/^aclfile \S+$/m);
    expect(conf).not.toMatch(/^requirepass/m);
  });

  it('give Redis a ceiling past which a write fails, and never evict a session or a live version to stay under it', () => {
    const conf = deployFile('redis.conf');
    expect(/^maxmemory (\S+)$/m.exec(conf)?.[1]).toBe('256mb');
    expect(/^maxmemory-policy (\S+)$/m.exec(conf)?.[1]).toBe('noeviction');
  });
});

describe('deploy/redis-figures.conf and deploy/redis-figures.acl', () => {
  it('keep the figures’ visitors on no disk, behind a user of their own who may only count', () => {
    const url = new URL(settings.get('FIGURES_REDIS_URL') ?? '');
    expect([url.protocol, url.hostname, url.port, url.username]).toEqual(['redis:', '127.0.0.1', '6380', 'collectif']);
    const conf = deployFile('redis-figures.conf');
    expect(/^save (.*)$/m.exec(conf)?.[1]).toBe('""');
    expect(/^appendonly (\S+)$/m.exec(conf)?.[1]).toBe('no');
    expect(/^port (\S+)$/m.exec(conf)?.[1]).toBe('6380');
    expect(/^bind (.*)$/m.exec(conf)?.[1]?.split(/\s+/)).toEqual(['127.0.0.1', '-::1']);
    const rules = deployFile('redis-figures.acl')
      .split('\n')
      .filter((line) => line.startsWith('user collectif '))
      .flatMap((line) => line.split(/\s+/));
    expect(rules.filter((rule) => /^[~&%]/.test(rule))).toEqual(['~collectif:figures:*']);
    // CONFIG GET only (the site's check of the disk), never CONFIG SET, SAVE or another admin command.
    expect(rules.filter((rule) => /config|save|@/i.test(rule))).toEqual(['-@all', '+config|get']);
  });
});
