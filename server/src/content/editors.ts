import type { ContentKind } from './kinds';

/**
 * Who may edit what (docs/content.md, « Who may edit what »): a resident edits only their residence;
 * the label team only the releases; the About team the team, the About texts and the slides; the
 * programming team (« programmation ») no content, only the show proposals (docs/proposals.md,
 * « Who sees what »), as the label team reads the demos; an admin everything. The server checks it
 * on every write, whatever the interface offers.
 */
export const ROLES = ['admin', 'residence', 'label', 'about', 'programmation'] as const;
export type Role = (typeof ROLES)[number];

/** A volunteer signed in, or the admin's token. */
export interface Editor {
  /** The account's name, as the history and the log say it. */
  account: string;
  role: Role;
  /** For a resident: the one residence they edit. */
  residence?: string;
}

const KINDS_OF: Record<Exclude<Role, 'residence'>, readonly ContentKind[]> = {
  admin: ['residences', 'releases', 'tracklists', 'team', 'about', 'slides', 'support', 'artistMerges', 'figures'],
  label: ['releases'],
  about: ['team', 'about', 'slides'],
  programmation: [],
};

/**
 * Whether `editor` may save `kind`: the whole of it, or only the entry `entry` (a residence's id).
 * A resident never saves the whole list of residences, only their own entry.
 */
export function mayEdit(editor: Editor, kind: ContentKind, entry?: string): boolean {
  if (editor.role === 'residence') {
    return kind === 'residences' && entry !== undefined && editor.residence !== undefined && entry === editor.residence;
  }
  return KINDS_OF[editor.role].includes(kind);
}

/** The kinds an editor may open at all (their lists in the editor, their history). */
export function kindsOf(editor: Editor): readonly ContentKind[] {
  return editor.role === 'residence' ? ['residences'] : KINDS_OF[editor.role];
}

/**
 * Whether `editor` may write the tracklist of an episode of these residences (docs/content.md,
 * « Tracklists »): a resident only an episode of their own residence, an admin any. The other
 * teams none.
 */
export function mayEditTracklist(editor: Editor, residences: readonly string[]): boolean {
  if (editor.role === 'residence') {
    return editor.residence !== undefined && residences.includes(editor.residence);
  }
  return mayEdit(editor, 'tracklists');
}
