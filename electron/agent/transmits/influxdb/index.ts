/** The influxdb transmit (`transmit_type: "influxdb"`): records as points into InfluxDB. See docs/influxdb.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type InfluxdbTransmitConfig, InfluxdbTransmit } from './influxdb-transmit.js';

const createInfluxdbTransmit: ComponentFactory<InfluxdbTransmitConfig> = (config, context) => new InfluxdbTransmit(config, context);
export default createInfluxdbTransmit;
