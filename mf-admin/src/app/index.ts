// The editor app's entry (docs/content.md, « The editor app »): no federation, so no async boundary.
import { startEditorApp } from './start';

startEditorApp(document);
