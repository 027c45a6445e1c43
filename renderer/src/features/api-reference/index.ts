export { ApiReferencePage } from './api-reference-page.js';
