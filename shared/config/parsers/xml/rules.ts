/** Rules of the xml parser that its schema cannot express. */
import type { z } from 'zod';
import { type JsonPath, type Violation, error } from '../../violations.js';
import type { XmlParserSchema } from './schema.js';
import { compileXPath } from './xpath.js';

export function xmlParserViolations(parser: z.infer<typeof XmlParserSchema>, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  const at: JsonPath = [...base, 'options', 'xpath'];
  const xpath = parser.options?.xpath;
  const steps = xpath === undefined ? [] : compileXPath(xpath);
  if (typeof steps === 'string') out.push(error(at, steps));
  else
    for (const step of steps)
      if (step.prefix !== undefined && parser.options?.namespaces?.[step.prefix] === undefined)
        out.push(error(at, `The prefix "${step.prefix}" is not in options.namespaces; add e.g. {"${step.prefix}": "<namespace URI>"}.`));
  return out;
}
