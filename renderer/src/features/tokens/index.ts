export { TokensPage } from './tokens-page.js';
