export { HelpPage } from './help-page.js';
