// @ts-check
// Bounds that more than one part applies to the same text, set once (a helper entry of its own, with
// nothing else in it, so that a part's bundle takes the number and nothing more).

/**
 * The longest an artist's or a title's name may be, in characters: a tracklist's row (content.mjs),
 * what the radio played (the server's record and the player's timeline) and a played artist's name.
 */
export const TRACK_TEXT_MAX = 200;
