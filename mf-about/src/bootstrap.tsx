import { renderStandalone } from '@collectif/shared/standalone';
import AboutPage from './exposed/AboutPage';

renderStandalone({ '*': AboutPage });
