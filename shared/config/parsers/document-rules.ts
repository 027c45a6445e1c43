/** Rules of the document parsers (excel, json, xml) that their schemas cannot express. */
import type { DocumentParserConfig } from './index.js';
import { columnsOfLetters } from './excel/usecols.js';
import { compileXPath } from './xml/xpath.js';
import { type JsonPath, type Violation, error } from '../violations.js';

export function documentParserViolations(parser: DocumentParserConfig, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  const at = (...path: (string | number)[]): JsonPath => [...base, 'options', ...path];
  if (parser.parser_type === 'excel') {
    const usecols = parser.options?.usecols;
    if (typeof usecols === 'string') {
      const columns = columnsOfLetters(usecols);
      if (typeof columns === 'string') out.push(error(at('usecols'), columns));
    } else if (usecols && usecols.some((c) => typeof c === 'number') && usecols.some((c) => typeof c === 'string')) {
      out.push(error(at('usecols'), 'usecols lists column names or zero-based positions, not both (as in pandas).'));
    }
  }
  if (parser.parser_type === 'xml') {
    const xpath = parser.options?.xpath;
    const steps = xpath === undefined ? [] : compileXPath(xpath);
    if (typeof steps === 'string') out.push(error(at('xpath'), steps));
    else
      for (const step of steps)
        if (step.prefix !== undefined && parser.options?.namespaces?.[step.prefix] === undefined)
          out.push(error(at('xpath'), `The prefix "${step.prefix}" is not in options.namespaces; add e.g. {"${step.prefix}": "<namespace URI>"}.`));
  }
  if (parser.parser_type === 'json' && parser.options?.lines && parser.options.record_path !== undefined)
    out.push(error(at('record_path'), 'record_path is for one JSON document a file; with lines true every line is a record.'));
  return out;
}
