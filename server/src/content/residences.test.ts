import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readApiConfig } from '../api/env';
import { readResidences } from './residences';

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  artist: ` Artiste ${id} `,
  show: 'Émission',
  description: '<em>Texte</em>',
  styles: ['dub', ' '],
  ...extra,
});

function file(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'residences-')), 'residences.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('the residences of the content file, one loader for the server', () => {
  it('reads the site’s own file whole: every entry passes its schema', () => {
    const { residences, problems } = readResidences(readApiConfig({}).demo.residencesFile);
    expect(problems).toEqual([]);
    expect(residences.length).toBeGreaterThan(50);
    expect(residences.find((r) => r.id === 'axonberg')).toMatchObject({ artist: 'Axonberg', show: 'Synapses' });
  });

  it('leaves out an entry its schema refuses, and says which', () => {
    const path = file([entry('bon'), entry('sans-emission', { show: '' }), entry('../mauvais'), entry('autre')]);
    const { residences, problems } = readResidences(path);
    expect(residences.map((r) => r.id)).toEqual(['bon', 'autre']);
    expect(residences[0]).toEqual({
      id: 'bon',
      artist: 'Artiste bon',
      show: 'Émission',
      description: '<em>Texte</em>',
      styles: ['dub'],
    });
    expect(problems).toEqual([
      expect.stringMatching(/^résidence n° 2 ignorée : champ \/show : trop court/),
      expect.stringMatching(/^résidence n° 3 ignorée : champ \/id : forme invalide/),
    ]);
  });

  it('reads a file once per version', () => {
    const path = file([entry('bon')]);
    expect(readResidences(path)).toBe(readResidences(path));
  });

  it('says so, and has none, for a missing or unreadable file', () => {
    expect(readResidences('/nulle-part/residences.json')).toEqual({
      residences: [],
      problems: ['fichier des résidences introuvable (/nulle-part/residences.json)'],
    });
    expect(readResidences(file('{ pas du JSON')).problems[0]).toMatch(/^fichier des résidences illisible/);
    expect(readResidences(file({ id: 'x' })).problems[0]).toMatch(/une liste est attendue/);
  });
});
