import { mayEdit, mayEditTracklist, kindsOf, type Editor } from './editors';

const admin: Editor = { account: 'camille', role: 'admin' };
const resident: Editor = { account: 'axonberg', role: 'residence', residence: 'axonberg' };
const label: Editor = { account: 'yanis', role: 'label' };
const about: Editor = { account: 'lea', role: 'about' };

describe('who may edit what', () => {
  it('lets a resident save their own residence, and nothing else', () => {
    expect(mayEdit(resident, 'residences', 'axonberg')).toBe(true);
    expect(mayEdit(resident, 'residences', 'faya-rootz')).toBe(false);
    expect(mayEdit(resident, 'residences')).toBe(false);
    expect(mayEdit(resident, 'releases')).toBe(false);
    expect(mayEdit(resident, 'team')).toBe(false);
    expect(mayEdit({ account: 'sans-residence', role: 'residence' }, 'residences', 'axonberg')).toBe(false);
    expect(kindsOf(resident)).toEqual(['residences']);
  });

  it('lets the label team save the releases only', () => {
    expect(
      ['residences', 'releases', 'team', 'about', 'slides'].filter((kind) => mayEdit(label, kind as never)),
    ).toEqual(['releases']);
    expect(mayEdit(label, 'residences', 'axonberg')).toBe(false);
  });

  it('lets the About team save the team, the About texts and the slides', () => {
    expect(
      ['residences', 'releases', 'team', 'about', 'slides'].filter((kind) => mayEdit(about, kind as never)),
    ).toEqual(['team', 'about', 'slides']);
  });

  it('lets an admin save everything, a residence included', () => {
    expect(['residences', 'releases', 'team', 'about', 'slides'].every((kind) => mayEdit(admin, kind as never))).toBe(
      true,
    );
    expect(mayEdit(admin, 'residences', 'axonberg')).toBe(true);
  });

  it('lets an admin alone merge played artists’ spellings', () => {
    expect([admin, resident, label, about].filter((editor) => mayEdit(editor, 'artistMerges'))).toEqual([admin]);
  });

  it('lets a resident write the tracklists of their residence’s episodes only, an admin any, the teams none', () => {
    expect(mayEditTracklist(resident, ['axonberg'])).toBe(true);
    expect(mayEditTracklist(resident, ['faya-rootz', 'axonberg'])).toBe(true);
    expect(mayEditTracklist(resident, ['faya-rootz'])).toBe(false);
    expect(mayEditTracklist(resident, [])).toBe(false);
    expect(mayEdit(resident, 'tracklists')).toBe(false);
    expect(mayEditTracklist({ account: 'sans-residence', role: 'residence' }, ['axonberg'])).toBe(false);
    expect(mayEditTracklist(admin, ['faya-rootz'])).toBe(true);
    expect(mayEditTracklist(label, ['axonberg'])).toBe(false);
    expect(mayEditTracklist(about, ['axonberg'])).toBe(false);
  });
});
