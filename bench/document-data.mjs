// Test files of the document parsers' bench: an .xlsx written straight to a zip stream (fflate),
// so that a workbook of any size is made in seconds and in little memory, and NDJSON files.
// The workbook is what Excel writes for a plain table: shared strings for text, numbers inline,
// a date style for the time column.
import fs from 'node:fs';
import { Zip, ZipDeflate, strToU8 } from 'fflate';

const PARTS = {
  '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
  '_rels/.rels': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/workbook.xml': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
  'xl/_rels/workbook.xml.rels': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
  'xl/styles.xml': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>',
};
const STATES = ['run', 'idle', 'stop', 'setup'];
const HEADER = ['time', 'machine', 'state', 'temp', 'pressure', 'speed', 'count', 'ok'];
const letter = (c) => String.fromCharCode(65 + c);

/** Writes a workbook of `rows` rows and 8 columns; resolves when it is on disk. */
export function writeXlsx(file, rows) {
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(file);
    const zip = new Zip((error, data, final) => {
      if (error) return reject(error);
      out.write(data);
      if (final) out.end(resolve);
    });
    for (const [name, text] of Object.entries(PARTS)) {
      const part = new ZipDeflate(name, { level: 6 });
      zip.add(part);
      part.push(strToU8(text), true);
    }
    const strings = [...HEADER, ...STATES, ...Array.from({ length: 20 }, (_, m) => `M-${m}`)];
    const index = new Map(strings.map((s, i) => [s, i]));
    const shared = new ZipDeflate('xl/sharedStrings.xml', { level: 6 });
    zip.add(shared);
    shared.push(strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`), true);
    const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 });
    zip.add(sheet);
    sheet.push(strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${HEADER.map((h, c) => `<c r="${letter(c)}1" t="s"><v>${index.get(h)}</v></c>`).join('')}</row>`));
    const start = 45658; // 2025-01-01 in Excel's serial days
    let lines = [];
    for (let i = 0; i < rows; i += 1) {
      const r = i + 2;
      lines.push(`<row r="${r}"><c r="A${r}" s="1"><v>${(start + i / 86400).toFixed(8)}</v></c><c r="B${r}" t="s"><v>${index.get(`M-${i % 20}`)}</v></c><c r="C${r}" t="s"><v>${index.get(STATES[i % 4])}</v></c><c r="D${r}"><v>${((i % 997) / 10 + 20).toFixed(1)}</v></c><c r="E${r}"><v>${(1 + (i % 13) / 100).toFixed(2)}</v></c><c r="F${r}"><v>${i % 1500}</v></c><c r="G${r}"><v>${i}</v></c><c r="H${r}" t="b"><v>${i % 7 === 0 ? 0 : 1}</v></c></row>`);
      if (lines.length === 1000) {
        sheet.push(strToU8(lines.join('')));
        lines = [];
      }
    }
    sheet.push(strToU8(`${lines.join('')}</sheetData></worksheet>`), true);
    zip.end();
  });
}

/** Writes `rows` JSON Lines of a machine's events (nested machine object, 8 fields flattened). */
export function writeNdjson(file, rows, first = 0) {
  const out = fs.openSync(file, 'w');
  let lines = [];
  for (let i = first; i < first + rows; i += 1) {
    const s = i % 86400;
    const time = `2025-01-${String(1 + Math.floor(i / 86400) % 28).padStart(2, '0')}T${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
    lines.push(JSON.stringify({ time, machine: { id: `M-${i % 20}`, state: STATES[i % 4] }, temp: (i % 997) / 10 + 20, pressure: 1 + (i % 13) / 100, speed: i % 1500, count: i, ok: i % 7 !== 0 }));
    if (lines.length === 5000) {
      fs.writeSync(out, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) fs.writeSync(out, `${lines.join('\n')}\n`);
  fs.closeSync(out);
}
