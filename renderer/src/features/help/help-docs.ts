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
import modbus from '../../../../docs/modbus.md?raw';
import mqtt from '../../../../docs/mqtt.md?raw';
import opcua from '../../../../docs/opcua.md?raw';
import s7 from '../../../../docs/s7.md?raw';
import security from '../../../../docs/security.md?raw';
import smb from '../../../../docs/smb.md?raw';
import sql from '../../../../docs/sql.md?raw';
import upload from '../../../../docs/upload.md?raw';
import consoleDe from '../../../../docs/console.de.md?raw';

export interface HelpDoc {
  id: string;
  title: string;
  /** Where it lives in the repository (README.md, docs/logs.md). */
  file: string;
  text: string;
}

/** A page whose id is its file's name: docs/smb.md is #/help/smb, README.md is #/help/readme. */
function page(title: string, file: string, text: string): HelpDoc {
  const id = file.replace(/^docs\//, '').replace(/\.md$/, '').toLowerCase();
  return { id, title, file, text };
}

export const HELP_DOCS: readonly HelpDoc[] = [
  page('Overview (README)', 'README.md', readme),
  page('Die Konsole (Deutsch)', 'docs/console.de.md', consoleDe),
  page('The data path', 'docs/data-path.md', dataPath),
  page('Configuration options', 'docs/compatibility.md', compatibility),
  page('Data quality', 'docs/data-quality.md', dataQuality),
  page('Logs', 'docs/logs.md', logs),
  page('KPIs', 'docs/kpi.md', kpi),
  page('Upload (remotedatapost)', 'docs/upload.md', upload),
  page('Windows shares (SMB)', 'docs/smb.md', smb),
  page('SQL databases', 'docs/sql.md', sql),
  page('OPC UA', 'docs/opcua.md', opcua),
  page('MQTT and Sparkplug B', 'docs/mqtt.md', mqtt),
  page('Modbus TCP', 'docs/modbus.md', modbus),
  page('Siemens S7', 'docs/s7.md', s7),
  page('Agents (fleet)', 'docs/fleet.md', fleet),
  page('Security, tokens and roles', 'docs/security.md', security),
];
