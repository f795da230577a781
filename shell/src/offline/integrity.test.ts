/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import {
  fileAnswer,
  KEPT_PAGE_POLICY,
  keptPageAnswer,
  matchesIntegrity,
  matchesName,
  nameHash,
  offlineNotice,
} from './integrity';

/** A file's bytes as the worker reads them from its cache. */
const bytes = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8');

/** The player's chunk as a build names it: the SHA-256 of its bytes, 32 hex digits. */
const GENUINE =
  '"use strict";(self.webpackChunkcollectif_player=self.webpackChunkcollectif_player||[]).push([[727],{}]);';
const GENUINE_HASH = sha256(GENUINE).digest('hex').slice(0, 32);
/** What a page's script writes in its place: the same chunk, running its own code first. */
const FORGED = `document.documentElement.setAttribute('data-contrefait', 'oui');${GENUINE}`;

describe('a content-hashed file kept by the worker', () => {
  it('has its hash read from its name, 32 hex digits; a shorter name or a source map has none', () => {
    expect(nameHash(`/mf-player/727.${GENUINE_HASH}.js`)).toBe(GENUINE_HASH);
    expect(nameHash(`/files/archivo.${GENUINE_HASH}.woff2`)).toBe(GENUINE_HASH);
    expect(nameHash('/mf-player/727.25ec18cc9d.js')).toBeNull();
    expect(nameHash(`/mf-player/727.${GENUINE_HASH}.js.map`)).toBeNull();
    expect(nameHash('/mf-player/remoteEntry.js')).toBeNull();
  });

  it('is answered when its bytes are the file its name says', async () => {
    await expect(matchesName(GENUINE_HASH, bytes(GENUINE))).resolves.toBe(true);
  });

  it('is refused when a page’s script wrote other bytes under the name', async () => {
    await expect(matchesName(GENUINE_HASH, bytes(FORGED))).resolves.toBe(false);
    await expect(matchesName(GENUINE_HASH, bytes(''))).resolves.toBe(false);
    // Nor is a name anything but a hash of its form.
    await expect(matchesName(GENUINE_HASH.slice(0, 10), bytes(GENUINE))).resolves.toBe(false);
  });

  it('that names itself (its source map, its licence file) is hashed without its own name, as webpack names it', async () => {
    // realContentHash hashes a file that contains its own hash with every occurrence taken out.
    const body = (hash: string) =>
      `/*! For license information please see 727.${hash}.js.LICENSE.txt */\n${GENUINE}\n//# sourceMappingURL=727.${hash}.js.map`;
    const hash = sha256(body('')).digest('hex').slice(0, 32);
    await expect(matchesName(hash, bytes(body(hash)))).resolves.toBe(true);
    await expect(matchesName(hash, bytes(`alert(1);${body(hash)}`))).resolves.toBe(false);
    // Bytes beyond ASCII are taken as they are.
    const french = `${body(hash)}\n// « Écouter le direct »`;
    const frenchHash = createHash('sha256').update(french.replaceAll(hash, ''), 'utf8').digest('hex').slice(0, 32);
    await expect(matchesName(frenchHash, bytes(french.replaceAll(hash, frenchHash)))).resolves.toBe(true);
  });

  it('is answered with the worker’s own headers, never those a forged copy carried', async () => {
    const answer = fileAnswer(`/mf-player/727.${GENUINE_HASH}.js`, bytes(GENUINE));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('refresh')).toBeNull();
    await expect(answer.text()).resolves.toBe(GENUINE);
    expect(fileAnswer(`/files/archivo.${GENUINE_HASH}.woff2`, bytes('')).headers.get('content-type')).toBe(
      'font/woff2',
    );
  });
});

describe('a precached file', () => {
  const OFFLINE = '<!doctype html><html lang="fr"><title>Hors ligne</title><h1>Vous êtes hors ligne</h1></html>';
  const integrity = `sha256-${sha256(OFFLINE).digest('base64')}`;

  it('is answered when its bytes have the digest the worker’s script carries', async () => {
    await expect(matchesIntegrity(integrity, bytes(OFFLINE))).resolves.toBe(true);
  });

  it('is refused otherwise, or when the worker carries no digest for it', async () => {
    const forged = OFFLINE.replace('<h1>', '<script>document.title = "contrefait"</script><h1>');
    await expect(matchesIntegrity(integrity, bytes(forged))).resolves.toBe(false);
    await expect(matchesIntegrity(undefined, bytes(OFFLINE))).resolves.toBe(false);
    await expect(matchesIntegrity('sha384-abc', bytes(OFFLINE))).resolves.toBe(false);
  });

  it('the offline page is answered with its own policy: its script and sheet, nothing inline', () => {
    const policy = fileAnswer('/hors-ligne.html', bytes(OFFLINE)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
  });
});

describe('a kept page, answered without network', () => {
  it('runs nothing: no script, no form, no frame, whatever its HTML or its headers said', async () => {
    const html = '<!doctype html><h1>Gardée</h1><script>document.title = "contrefait"</script>';
    const answer = keptPageAnswer(bytes(html));
    expect(answer.headers.get('content-security-policy')).toBe(KEPT_PAGE_POLICY);
    const directives = KEPT_PAGE_POLICY.split(';').map((directive) => directive.trim());
    expect(directives).toContain('sandbox allow-same-origin');
    expect(directives).toContain("script-src 'none'");
    expect(KEPT_PAGE_POLICY).not.toContain('allow-scripts');
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await expect(answer.text()).resolves.toBe(html);
  });

  it('and when even the offline page was forged, a few words of the worker’s own say so', async () => {
    const notice = offlineNotice();
    await expect(notice.text()).resolves.toContain('<h1>Vous êtes hors ligne</h1>');
    expect(notice.headers.get('content-security-policy')).toBe(KEPT_PAGE_POLICY);
  });
});
