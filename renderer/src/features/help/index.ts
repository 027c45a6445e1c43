export { HelpPage } from './help-page.js';
export { HelpPanel } from './help-panel.js';
