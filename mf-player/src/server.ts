// mf-player's server bundle (docs/rendering.md): the player as it first shows, closed. Its audio
// element and its connections exist only in the browser (effects).
import type { RemoteServerBundle } from '@collectif/shared/server';
import Player from './exposed/Player';

export const modules = { Player } satisfies RemoteServerBundle['modules'];
