import { renderStandalone } from '@collectif/shared/standalone';
import LabelPage from './exposed/LabelPage';

renderStandalone({ '*': LabelPage });
