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
import { text as catalogText } from '../../i18n/language.js';
import { en, type Catalog } from '../../i18n/messages/en.js';

export interface HelpDoc {
  id: string;
  /** The title in English (tools, tests); the console shows docTitle(doc) in its language. */
  title: string;
  /** Its title's key under help.docs in the message catalogs. */
  key: HelpDocKey;
  /** Where it lives in the repository (README.md, docs/logs.md). */
  file: string;
  text: string;
}

/** A page whose id is its file's name: docs/smb.md is #/help/smb, README.md is #/help/readme. */
function page(file: string, text: string): HelpDoc {
  const id = file.replace(/^docs\//, '').replace(/\.md$/, '').toLowerCase();
  // Its title's key: the id in camel case (data-path: dataPath, console.de: consoleDe).
  const key = id.replace(/[-.](\w)/g, (_, c: string) => c.toUpperCase()) as HelpDocKey;
  return { id, title: en.help.docs[key], key, file, text };
}

type HelpDocKey = keyof Catalog['help']['docs'];

/** A document's title in the console's language (German titles say which documents are English). */
export const docTitle = (doc: HelpDoc): string => catalogText(`help.docs.${doc.key}`);

export const HELP_DOCS: readonly HelpDoc[] = [
  page('README.md', readme),
  page('docs/console.de.md', consoleDe),
  page('docs/data-path.md', dataPath),
  page('docs/compatibility.md', compatibility),
  page('docs/data-quality.md', dataQuality),
  page('docs/logs.md', logs),
  page('docs/kpi.md', kpi),
  page('docs/upload.md', upload),
  page('docs/smb.md', smb),
  page('docs/sql.md', sql),
  page('docs/opcua.md', opcua),
  page('docs/mqtt.md', mqtt),
  page('docs/modbus.md', modbus),
  page('docs/s7.md', s7),
  page('docs/fleet.md', fleet),
  page('docs/security.md', security),
];
