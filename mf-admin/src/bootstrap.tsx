import { renderStandalone } from '@collectif/shared/standalone';
import AdminPage from './exposed/AdminPage';
import InvitationPage from './exposed/InvitationPage';

renderStandalone({ 'admin/invitation': InvitationPage, '*': AdminPage });
