/**
 * `parser_type: "xml"`: the elements `options.xpath` selects are records, read as pandas read_xml
 * reads them (its attributes, its own text, and each child element's text, typed by xml-values.ts).
 * Streamed by saxes: only the open elements' names and the record being read are kept. Depth, the
 * text of a record and text outside records are bounded; a broken document stops at its line and
 * column (the records before it are kept).
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { z } from 'zod';
import type { XmlParserSchema } from '../../../../shared/config/parsers/index.js';
import { type OpenElement, compileXPath, matchesXPath } from '../../../../shared/config/parsers/xml/xpath.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { type ByteSource, DOCUMENT_LIMITS, DocumentError, type DocumentReader, type DocumentRecord, SequentialBytes } from '../document/document-reader.js';
import { createDocumentTimes } from '../document/document-times.js';
import { type XmlDecoder, xmlDecoderFor } from './xml-encoding.js';
import { xmlValue } from './xml-values.js';

type XmlConfig = z.infer<typeof XmlParserSchema>;

interface OpenRecord {
  depth: number;
  line: number;
  fields: Record<string, FieldValue>;
  ownText: string;
  child: { name: string; text: string } | null;
  chars: number;
  fieldCount: number;
}

export function openXmlReader(config: XmlConfig, source: ByteSource, name: string): DocumentReader {
  const steps = compileXPath(config.options?.xpath ?? './*');
  if (typeof steps === 'string') throw new DocumentError(name, steps);
  const namespaces = config.options?.namespaces ?? {};
  const times = createDocumentTimes(config.options);
  const bytes = new SequentialBytes(source);
  const queue: DocumentRecord[] = [];
  const problems: string[] = [];
  const stack: OpenElement[] = [];
  const parser = new SaxesParser({ xmlns: true, position: true });
  let decoder: XmlDecoder | undefined;
  let record: OpenRecord | null = null;
  let finished = false;
  let failure: DocumentError | undefined;
  const fail = (message: string) => {
    failure ??= new DocumentError(`${name} line ${parser.line} column ${parser.column + 1}`, message);
  };

  const grow = (open: OpenRecord, chars: number) => {
    open.chars += chars;
    if (open.chars > DOCUMENT_LIMITS.maxRecordChars) fail(`a record holds more than ${DOCUMENT_LIMITS.maxRecordChars} characters`);
  };
  // Fields are counted as well as characters: a million empty children or attributes with
  // distinct names hold no text but would each take a field.
  const addField = (open: OpenRecord, fieldName: string) => {
    grow(open, fieldName.length + 1);
    if ((open.fieldCount += 1) > DOCUMENT_LIMITS.maxFields) {
      fail(`a record has more than ${DOCUMENT_LIMITS.maxFields} fields`);
      throw failure!;
    }
  };
  parser.on('opentag', (tag: SaxesTagNS) => {
    stack.push({ local: tag.local, uri: tag.uri });
    if (stack.length > DOCUMENT_LIMITS.maxDepth) {
      // Thrown, not only noted: saxes resolves namespaces through every open element, so reading
      // on through a deeper chunk would cost the square of its depth.
      fail(`elements nested deeper than ${DOCUMENT_LIMITS.maxDepth} levels`);
      throw failure!;
    }
    if (record) {
      // A direct child: its text is a field; deeper elements are not (as in read_xml).
      if (stack.length === record.depth + 1) {
        addField(record, tag.local);
        record.child = { name: tag.local, text: '' };
      }
      return;
    }
    if (!matchesXPath(steps, stack, namespaces)) return;
    record = { depth: stack.length, line: parser.line, fields: {}, ownText: '', child: null, chars: 0, fieldCount: 0 };
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      addField(record, attribute.local);
      record.fields[attribute.local] = xmlValue(attribute.value);
      grow(record, attribute.value.length);
    }
  });
  const onText = (text: string) => {
    if (!record) return;
    grow(record, text.length);
    if (stack.length === record.depth) record.ownText += text;
    else if (record.child && stack.length === record.depth + 1) record.child.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const open = record;
    if (open && stack.length === open.depth + 1 && open.child) {
      open.fields[open.child.name] = xmlValue(open.child.text.trim() === '' ? null : open.child.text);
      open.child = null;
    } else if (open && stack.length === open.depth) {
      const element = stack[stack.length - 1]!;
      if (open.ownText.trim() !== '') open.fields = { ...open.fields, [element.local]: xmlValue(open.ownText) };
      const place = `${name} line ${open.line}`;
      const stamped = times.stamp(open.fields);
      if (typeof stamped === 'string') problems.push(`${place}: ${stamped}`);
      else queue.push({ fieldvalues: open.fields, place, ...(stamped === null ? {} : { timestampMicros: stamped }) });
      record = null;
    }
    stack.pop();
  });
  parser.on('error', (error) => fail(error.message.replace(/^[^:]*:\d+:\d+: /, '')));

  const step = () => {
    if (bytes.atEnd) {
      finished = true;
      if (decoder) parser.write(decoder.end());
      parser.close();
      return;
    }
    const at = bytes.position;
    let chunk = bytes.nextChunk();
    if (at === 0) {
      const found = xmlDecoderFor(chunk);
      if (typeof found === 'string') throw new DocumentError(`${name} line 1`, found);
      decoder = found;
      chunk = chunk.subarray(found.skip);
    }
    parser.write(decoder!.write(chunk));
    // Text outside any record (or between tags) waits in saxes' buffer: bounded too.
    const pending = (parser as unknown as { text?: string }).text;
    if (typeof pending === 'string' && pending.length > DOCUMENT_LIMITS.maxRecordChars) fail(`text longer than ${DOCUMENT_LIMITS.maxRecordChars} characters`);
  };

  return {
    get done() {
      return finished && queue.length === 0;
    },
    next(max) {
      while (queue.length < max && !finished && !failure) {
        try {
          step();
        } catch (cause) {
          if (cause instanceof DocumentError) failure ??= cause;
          else fail((cause as Error).message);
        }
      }
      if (failure && queue.length === 0) {
        finished = true;
        throw failure;
      }
      return queue.splice(0, max);
    },
    takeProblems: () => problems.splice(0),
    close: () => source.close(),
  };
}
