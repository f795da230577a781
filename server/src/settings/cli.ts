// `npm run settings` (or `npm start -- --help`): every setting with its default and an example;
// `--markdown` writes docs/settings.md's text.
import { settingsMarkdown, settingsText } from './list';

process.stdout.write(process.argv.includes('--markdown') ? settingsMarkdown() : settingsText(process.env));
