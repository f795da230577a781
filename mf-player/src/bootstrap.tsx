import { renderStandalone } from '@collectif/shared/standalone';
import Player from './exposed/Player';

renderStandalone({ '*': Player });
