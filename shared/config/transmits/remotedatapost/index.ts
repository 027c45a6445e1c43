/** The remotedatapost transmit, as the configuration code sees it (registered in transmits/index.ts). */
import type { z } from 'zod';
import { transmitDescriptor } from '../descriptor.js';
import { RemoteDataPostTransmitSchema, type SightMachineCloudSchema } from './schema.js';
import { remoteDataPostTemplate } from './template.js';
import { cloudViolations, remoteDataPostViolations, transmitCredentials } from './rules.js';
import { cloudBlockSecrets, remoteDataPostSecrets } from './secrets.js';

type Cloud = z.infer<typeof SightMachineCloudSchema> | undefined;

export const remoteDataPostTransmit = transmitDescriptor({
  type: 'remotedatapost',
  schema: RemoteDataPostTransmitSchema,
  rules: (transmit, { index, document, isPrompt }) =>
    remoteDataPostViolations(transmit, index, document.sight_machine_cloud as Cloud, isPrompt),
  documentRules: (document, { partial }) =>
    cloudViolations(document.sight_machine_cloud as Cloud, document.data_transmit, partial),
  // Its base_url, API_key and API_key_ID: its own, else sight_machine_cloud's; empty when neither has
  // it, which validation reports as an error.
  resolve: (transmit, index, document) => {
    const credentials = transmitCredentials(transmit, index, document.sight_machine_cloud as Cloud);
    return {
      ...transmit,
      base_url: credentials.base_url?.value ?? '',
      API_key: credentials.API_key?.value ?? '',
      API_key_ID: credentials.API_key_ID?.value ?? '',
    };
  },
  templates: { remotedatapost: { transmit: remoteDataPostTemplate } },
  secrets: remoteDataPostSecrets,
  blockSecrets: cloudBlockSecrets,
  does: { verb: 'sends with', what: 'remotedatapost (RDP2)' },
  docs: 'docs/upload.md',
});
