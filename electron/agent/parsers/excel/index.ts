/** parser_type "excel" (.xlsx, .xlsm). */
export { openExcelReader } from './xlsx-reader.js';
