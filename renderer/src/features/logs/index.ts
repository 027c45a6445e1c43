export { LogsPage } from './logs-page.js';
