import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runAdmin } from './cli';
import { workspaceRoot } from '../settings/config';

// `npm run admin` (docs/content.md, « Accounts »): an invitation's link, a list, a revoke, and
// what is refused, said in French with exit code 2.

let dir: string;
let lines: string[];
const now = () => new Date('2026-11-25T10:00:00Z');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'admin-'));
  lines = [];
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) =>
  runAdmin(args, {
    env: { CONTENT_DIR: dir, SITE_ORIGIN: 'https://radio.example.org' },
    out: (line) => lines.push(line),
    now,
  });

describe('npm run admin', () => {
  it('invites a resident with a one-time link on the site, and lists the invitation', async () => {
    expect(await run('invite', '--role', 'residence', '--residence', 'axonberg')).toBe(0);
    expect(lines[0]).toBe('Invitation (residence : axonberg), valable 7 jours, une seule fois :');
    expect(lines[1]).toMatch(/^https:\/\/radio\.example\.org\/admin\/invitation#[A-Za-z0-9_-]{43}$/);
    lines = [];
    expect(await run('list')).toBe(0);
    expect(lines).toEqual([
      'Aucun compte.',
      'Invitations en attente :',
      '- residence : axonberg, jusqu’au 2026-12-02T10:00:00.000Z',
    ]);
  });

  it('links to the editor’s own origin when it has one (EDITOR_ORIGIN)', async () => {
    const code = await runAdmin(['invite', '--role', 'admin'], {
      env: {
        CONTENT_DIR: dir,
        SITE_ORIGIN: 'https://radio.example.org',
        EDITOR_ORIGIN: 'https://edition.radio.example.org',
      },
      out: (line) => lines.push(line),
      now,
    });
    expect(code).toBe(0);
    expect(lines[1]).toMatch(/^https:\/\/edition\.radio\.example\.org\/admin\/invitation#[A-Za-z0-9_-]{43}$/);
  });

  it('links, on this machine with no origin set, to the editor as npm start serves it', async () => {
    const code = await runAdmin(['invite', '--role', 'about'], {
      env: { CONTENT_DIR: dir },
      out: (line) => lines.push(line),
      now,
    });
    expect(code).toBe(0);
    expect(lines[1]).toMatch(/^http:\/\/edition\.localhost:8080\/admin\/invitation#/);
  });

  it('invites the programming team, who read the show proposals (docs/proposals.md)', async () => {
    expect(await run('invite', '--role', 'programmation')).toBe(0);
    expect(lines[0]).toMatch(/^Invitation \(programmation\), valable 7 jours/);
  });

  it('takes --site over SITE_ORIGIN, and refuses what is not an address', async () => {
    expect(await run('invite', '--role', 'label', '--site', 'http://localhost:8080/chemin')).toBe(0);
    expect(lines[1]).toMatch(/^http:\/\/localhost:8080\/admin\/invitation#/);
    expect(await run('invite', '--role', 'label', '--site', 'ftp://x')).toBe(2);
    expect(lines.at(-1)).toBe('--site : « ftp://x » n’est pas une adresse http ou https');
  });

  it('refuses an unknown role, residence, account or command, with exit code 2', async () => {
    expect(await run('invite', '--role', 'chef')).toBe(2);
    expect(lines.at(-1)).toBe('--role attend admin, residence, label, about, programmation');
    expect(await run('invite', '--role', 'residence', '--residence', 'personne')).toBe(2);
    expect(lines.at(-1)).toBe('Résidence inconnue : « personne »');
    expect(await run('revoke', 'personne')).toBe(2);
    expect(lines.at(-1)).toBe('Compte inconnu : « personne »');
    expect(await run('supprimer')).toBe(2);
    expect(lines.at(-1)).toMatch(/^Commande inconnue : « supprimer »/);
  });

  it('runs as npm runs it', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', './server/tsx.mjs', 'server/src/admin/cli.ts', 'list'],
      { cwd: workspaceRoot, env: { ...process.env, CONTENT_DIR: dir } },
    );
    expect(stdout).toBe('Aucun compte.\nAucune invitation en attente.\n');
  });
});
