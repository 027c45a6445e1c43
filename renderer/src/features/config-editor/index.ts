export { ConfigPage } from './config-page.js';
