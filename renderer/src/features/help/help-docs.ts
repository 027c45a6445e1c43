/**
 * The documentation bundled into the console (it works the same over HTTP and in the desktop app,
 * offline), and which part of it answers each page's questions.
 */
import readme from '../../../../README.md?raw';
import compatibility from '../../../../docs/compatibility.md?raw';
import dataPath from '../../../../docs/data-path.md?raw';
import dataQuality from '../../../../docs/data-quality.md?raw';
import fleet from '../../../../docs/fleet.md?raw';
import kpi from '../../../../docs/kpi.md?raw';
import logs from '../../../../docs/logs.md?raw';
import mqtt from '../../../../docs/mqtt.md?raw';
import opcua from '../../../../docs/opcua.md?raw';
import security from '../../../../docs/security.md?raw';
import smb from '../../../../docs/smb.md?raw';
import sql from '../../../../docs/sql.md?raw';
import upload from '../../../../docs/upload.md?raw';

export interface HelpDoc {
  id: string;
  title: string;
  /** Where it lives in the repository (README.md, docs/logs.md). */
  file: string;
  text: string;
}

export const HELP_DOCS: readonly HelpDoc[] = [
  { id: 'readme', title: 'Overview (README)', file: 'README.md', text: readme },
  { id: 'data-path', title: 'The data path', file: 'docs/data-path.md', text: dataPath },
  { id: 'compatibility', title: 'Configuration options', file: 'docs/compatibility.md', text: compatibility },
  { id: 'data-quality', title: 'Data quality', file: 'docs/data-quality.md', text: dataQuality },
  { id: 'logs', title: 'Logs', file: 'docs/logs.md', text: logs },
  { id: 'kpi', title: 'KPIs', file: 'docs/kpi.md', text: kpi },
  { id: 'upload', title: 'Upload (remotedatapost)', file: 'docs/upload.md', text: upload },
  { id: 'smb', title: 'Windows shares (SMB)', file: 'docs/smb.md', text: smb },
  { id: 'sql', title: 'SQL databases', file: 'docs/sql.md', text: sql },
  { id: 'opcua', title: 'OPC UA', file: 'docs/opcua.md', text: opcua },
  { id: 'mqtt', title: 'MQTT and Sparkplug B', file: 'docs/mqtt.md', text: mqtt },
  { id: 'fleet', title: 'Agents (fleet)', file: 'docs/fleet.md', text: fleet },
  { id: 'security', title: 'Security, tokens and roles', file: 'docs/security.md', text: security },
];
