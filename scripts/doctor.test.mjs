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

  it('names a missing bubblewrap, says how to install it, and fails', () => {
    // A PATH where no bwrap is found (the doctor runs Node itself by its own path).
    const { status, output } = run({ PATH: '/nulle-part' });
    expect(status).toBe(1);
    expect(output).toContain('✖ bubblewrap (bwrap) introuvable : les processus de rendu ne peuvent pas être isolés');
    expect(output).toContain('sudo apt-get install -y bubblewrap');
  });

  it('names a missing Icecast (the timeline’s tests start one), says how to install it, and fails', () => {
    const { status, output } = run({ ICECAST_PATH: '/nulle-part/icecast2' });
    expect(status).toBe(1);
    expect(output).toContain('✖ Icecast introuvable ou inutilisable (/nulle-part/icecast2)');
    expect(output).toContain('sudo apt-get install -y icecast2');
  });

  it('says that the renderers run behind bubblewrap where it can make its namespaces', () => {
    expect(run({}).output).toContain('✔ bubblewrap : les processus de rendu tournent isolés par le système');
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
