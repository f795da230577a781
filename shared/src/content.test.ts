import { join } from 'node:path';
import { checkAllContent, contentFiles, validateContent } from '../build/content.mjs';

const root = join(__dirname, '..', '..');

describe('content files', () => {
  it('are found beside their schemas in every workspace', () => {
    const names = contentFiles(root).map((pair) => pair.data.slice(root.length));
    expect(names).toEqual(expect.arrayContaining([join('/shared/content/residences.json')]));
  });

  it('shipped with the site all follow their schemas (volunteers edit them: only the schema is checked)', () => {
    expect(checkAllContent(root)).toEqual([]);
  });

  it('name the file and the field of each problem', () => {
    const schema = {
      type: 'array',
      items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } }, additionalProperties: false },
    };
    expect(validateContent(schema, [{ id: 'a' }, { nom: 'b' }], 'content/x.json')).toEqual([
      "content/x.json: champ /1 : must have required property 'id' (id)",
      'content/x.json: champ /1 : must NOT have additional properties (nom)',
    ]);
  });
});
