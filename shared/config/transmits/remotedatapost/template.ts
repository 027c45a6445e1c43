/** The remotedatapost transmit of the templates (GET /v1/config/templates and the editor). */
import { prompt } from '../../template-parts.js';

export const remoteDataPostTemplate = {
  transmit_name: 'cloud',
  transmit_type: 'remotedatapost' as const,
  filter_stream: ['*'],
  base_url: prompt('https://<tenant>.<domain>'),
  API_key: prompt('edge API key'),
  API_key_ID: prompt('edge API key id'),
  timeout: 120,
  poll_interval: 5,
  max_request_records: 3000,
};
