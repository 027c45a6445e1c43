/** The mqtt transmit, as the configuration code sees it (registered in transmits/index.ts). */
import { transmitDescriptor } from '../descriptor.js';
import { hostName, text, tlsFields } from '../../secret-fields.js';
import { MqttTransmitSchema } from './schema.js';
import { mqttTransmitViolations } from '../../mqtt-rules.js';
import { mqttTransmitTemplate, sparkplugTransmitTemplate } from './template.js';

export const mqttTransmit = transmitDescriptor({
  type: 'mqtt',
  schema: MqttTransmitSchema,
  rules: (transmit, { base }) => mqttTransmitViolations(transmit, base),
  templates: {
    mqtt: { transmit: mqttTransmitTemplate, snippet: 'JSON mqtt' },
    sparkplug_b: { transmit: sparkplugTransmitTemplate, snippet: 'Sparkplug B (mqtt)' },
  },
  // The broker the password opens.
  secrets: [
    {
      secret: 'password',
      target: 'the broker',
      fields: [
        { name: 'host', read: (h) => hostName(h.host) },
        { name: 'port' },
        { name: 'username', read: (h) => text(h.username) },
        ...tlsFields(),
      ],
    },
  ],
  does: { verb: 'sends with', what: 'mqtt' },
  docs: 'docs/mqtt.md',
});
