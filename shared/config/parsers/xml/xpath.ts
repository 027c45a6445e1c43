/**
 * The XPath subset of `options.xpath` (pandas read_xml's selector): location paths of element names
 * with "/" (child) and "//" (descendant) steps, "*" for any name and prefixes bound in
 * `options.namespaces`. Matched against the stack of open elements while the file streams, so a
 * record is known when its element starts and nothing else of the document is kept.
 */

export interface XPathStep {
  /** true: "//" before the step (any depth below the previous step). */
  descendant: boolean;
  /** Local name, or "*". */
  name: string;
  /** Prefix as written; resolved through options.namespaces. */
  prefix?: string;
}

const NAME = /^(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*|\*)$/;

/** The steps of an xpath, or the reason it is not one Tributary reads. */
export function compileXPath(xpath: string): XPathStep[] | string {
  let rest = xpath.trim();
  // "./*" and ".//row" are relative to the root element (pandas' default is "./*").
  if (rest.startsWith('./')) rest = `/*${rest.slice(1)}`;
  if (!rest.startsWith('/')) rest = `//${rest}`;
  const steps: XPathStep[] = [];
  let at = 0;
  while (at < rest.length) {
    const descendant = rest.startsWith('//', at);
    at += descendant ? 2 : 1;
    let end = rest.indexOf('/', at);
    if (end < 0) end = rest.length;
    const text = rest.slice(at, end);
    const match = NAME.exec(text);
    if (!match) {
      if (/[[\]()@=|]/.test(text))
        return `"${xpath}": predicates, attributes and functions are not supported; use element names with / and // (e.g. //Tag, /a/b/c, //a/b).`;
      return `"${xpath}" is not a path of element names (e.g. //Tag, /a/b/c, //a/b).`;
    }
    steps.push({ descendant, name: match[2]!, ...(match[1] ? { prefix: match[1] } : {}) });
    at = end;
  }
  if (steps.length === 0) return `"${xpath}" selects no elements; write e.g. //Tag.`;
  return steps;
}

/** An open element: its local name and namespace URI. */
export interface OpenElement {
  local: string;
  uri: string;
}

/**
 * Whether the stack of open elements (root first) ends at an element the steps select.
 * Unprefixed names match any namespace (files with a default namespace need no setup).
 */
export function matchesXPath(steps: readonly XPathStep[], stack: readonly OpenElement[], namespaces: Readonly<Record<string, string>>): boolean {
  const fits = (step: XPathStep, element: OpenElement) =>
    (step.name === '*' || step.name === element.local) && (step.prefix === undefined || namespaces[step.prefix] === element.uri);
  // Backtracking over steps and elements; paths are a few steps, stacks are depth-bounded.
  const match = (s: number, e: number): boolean => {
    if (s < 0) return e < 0;
    if (e < 0) return false;
    const step = steps[s]!;
    if (!fits(step, stack[e]!)) return false;
    if (!step.descendant) return match(s - 1, e - 1);
    if (s === 0) return true;
    for (let up = e - 1; up >= 0; up -= 1) if (match(s - 1, up)) return true;
    return false;
  };
  return match(steps.length - 1, stack.length - 1);
}
