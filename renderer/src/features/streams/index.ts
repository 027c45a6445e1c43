export { StreamsPage } from './streams-page.js';
