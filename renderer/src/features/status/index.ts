export { StatusPage } from './status-page.js';
