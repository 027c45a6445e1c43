export { KpiPage } from './kpi-page.js';
