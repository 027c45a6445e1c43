/** parser_type "json" (documents and JSON Lines). */
export { openJsonReader } from './json-reader.js';
