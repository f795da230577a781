/** Blocks 3 to 5 of the home page fade in within 100 px of the viewport bottom (docs/site.md, « Home »). */
export const HOME_REVEAL_OFFSET_PX = 100;

export function revealClass(base: string, active: boolean): string {
  return active ? `${base} reveal active` : `${base} reveal`;
}
