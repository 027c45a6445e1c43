export { AgentsPage } from './agents-page.js';
