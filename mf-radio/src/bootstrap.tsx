import { renderStandalone } from '@collectif/shared/standalone';
import HomePage from './exposed/HomePage';
import ResidencePage from './exposed/ResidencePage';
import ResidencesPage from './exposed/ResidencesPage';

renderStandalone({ '/': HomePage, '/residences': ResidencesPage, '/residences/:id': ResidencePage });
