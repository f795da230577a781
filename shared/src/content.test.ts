import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { checkAllContent, contentFiles, contentJsonSchemas } from '../build/content.mjs';
import { contentProblems, residencesSchema } from './schemas/content.mjs';

const root = join(__dirname, '..', '..');

describe('content files', () => {
  it('each have their JSON Schema beside them, written from their Valibot schema (npm run build writes them)', () => {
    const names = contentFiles(root).map((pair) => pair.data.slice(root.length));
    expect(names).toEqual(expect.arrayContaining([join('/shared/content/residences.json')]));
    for (const { file, text } of contentJsonSchemas()) expect(readFileSync(join(root, file), 'utf8')).toBe(text);
  });

  it('shipped with the site all follow their schemas (volunteers edit them: only the schema is checked)', () => {
    expect(checkAllContent(root)).toEqual([]);
  });

  it('name the file and the field of each problem, in French', () => {
    const schema = v.array(v.strictObject({ id: v.string() }));
    expect(contentProblems(schema, [{ id: 'a' }, { nom: 'b' }], 'content/x.json')).toEqual([
      'content/x.json: champ /1/id : champ requis manquant',
      'content/x.json: champ /1/nom : champ inconnu',
    ]);
    const residence = {
      id: 'a b',
      artist: '',
      show: 'Émission',
      description: 'Texte',
      styles: [],
      website: 'http://x',
    };
    expect(contentProblems(residencesSchema, [residence], 'residences.json')).toEqual([
      expect.stringMatching(/^residences\.json: champ \/0\/id : forme invalide/),
      expect.stringMatching(/^residences\.json: champ \/0\/artist : trop court/),
      expect.stringMatching(/^residences\.json: champ \/0\/website : forme invalide/),
    ]);
  });
});
