/** The convert_timestamps transform of the complete templates (receivers/<protocol>/template.ts use it). */
import { prompt } from '../../template-parts.js';

/** File receivers' machines write local times: the complete templates convert them to UTC. */
export const localTimeToUtc = {
  transform_name: 'local_time_to_utc',
  transform_type: 'convert_timestamps' as const,
  filter_stream: ['*'],
  field_names: [prompt('column with local time stamps')],
  timezone: prompt('time zone of the machine, e.g. Europe/Berlin'),
};
