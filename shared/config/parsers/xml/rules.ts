/** Rules of the xml parser that its schema cannot express. */
import type { z } from 'zod';
import { type JsonPath, type Violation, error, say } from '../../violations.js';
import type { XmlParserSchema } from './schema.js';
import { compileXPath } from './xpath.js';

export function xmlParserViolations(parser: z.infer<typeof XmlParserSchema>, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  const at: JsonPath = [...base, 'options', 'xpath'];
  const xpath = parser.options?.xpath;
  const steps = xpath === undefined ? [] : compileXPath(xpath);
  if (typeof steps === 'string') out.push(error(at, say('xml.xpath_invalid', '{text}', { text: steps, xpath: xpath ?? '' })));
  else
    for (const step of steps)
      if (step.prefix !== undefined && parser.options?.namespaces?.[step.prefix] === undefined)
        out.push(error(at, say('xml.prefix_options_namespaces_add', 'The prefix "{prefix}" is not in options.namespaces; add e.g. {"{prefix}": "<namespace URI>"}.', { prefix: step.prefix })));
  return out;
}
