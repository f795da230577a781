// npm run doctor, run as a contributor runs it: its words and its exit status.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const doctor = fileURLToPath(new URL('./doctor.mjs', import.meta.url));

/** @param {Record<string, string>} env */
function run(env) {
  const result = spawnSync(process.execPath, [doctor], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, output: result.stdout };
}

describe('npm run doctor', () => {
  it('names a missing Chromium, says how to install it, and fails', () => {
    const { status, output } = run({ CHROMIUM_PATH: '/nulle-part/chromium' });
    expect(status).toBe(1);
    expect(output).toContain('✖ Chromium introuvable ou inutilisable (/nulle-part/chromium)');
    expect(output).toContain('sudo apt-get install -y chromium');
    expect(output).toContain('« npm test » ne peut pas passer sur cette machine');
  });

  it('says which ports are taken and which variable moves them, without failing', async () => {
    const taken = createServer();
    await new Promise((resolve) => {
      taken.listen(0, '127.0.0.1', () => resolve(undefined));
    });
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const { output } = run({ PORT: String(port), CHROMIUM_PATH: '/nulle-part/chromium' });
      expect(output).toContain(`! port ${String(port)} (le site, npm start et npm run dev)`);
      expect(output).toContain('PORT=8081 npm start');
    } finally {
      taken.close();
    }
  });

  it('checks that the tests’ fonts are the project’s own', () => {
    const { output } = run({});
    expect(output).toContain('✔ polices des tests (paquet npm dejavu-fonts-ttf)');
  });
});
