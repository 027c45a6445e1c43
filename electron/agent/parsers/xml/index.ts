/** parser_type "xml". */
export { openXmlReader } from './xml-reader.js';
