/** Which document (and section) answers the questions of each console page. Pure: no bundled text here. */

/** A page of the console → `doc` or `doc#section` of the Help page. */
export const PAGE_HELP: Readonly<Record<string, string>> = {
  status: 'readme#the-console',
  configuration: 'compatibility',
  streams: 'data-path',
  logs: 'logs',
  kpis: 'kpi',
  agents: 'fleet',
  tokens: 'security',
  api: 'readme#the-management-api',
  help: 'readme',
};

/**
 * Help written in a language other than English, per page: a console in that language opens it
 * (docs/i18n.md). Pages without an entry open the English documentation.
 */
export const PAGE_HELP_IN: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  de: {
    status: 'console.de#status',
    configuration: 'console.de#konfiguration',
    streams: 'console.de#datenströme',
    logs: 'console.de#protokolle',
    kpis: 'console.de#kennzahlen',
    agents: 'console.de#agenten',
    tokens: 'console.de#zugänge',
    help: 'console.de',
  },
};

/** The address of a page's help in `language` (else English): #/help/<doc>[/<section>]. */
export function helpHref(page: string, language = 'en'): string {
  const [doc, section] = (PAGE_HELP_IN[language]?.[page] ?? PAGE_HELP[page] ?? 'readme').split('#');
  return `#/help/${doc}${section ? `/${section}` : ''}`;
}

/** The document and section an address asks for. */
export function helpTarget(hash: string): { doc: string; section: string | undefined } {
  const [, doc, section] = hash.replace(/^#\/?/, '').split('/');
  return { doc: doc || 'readme', section: section || undefined };
}

/** The id of a heading, as GitHub makes them: lower case, spaces to dashes, punctuation dropped. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * A link inside a document: another bundled document (docs/logs.md, logs.md, ../README.md#x) opens in
 * the Help page; a web address stays as it is; anything else (a source file) has no page here.
 */
export function docLink(href: string, known: readonly { id: string; file: string }[], current: string): string | undefined {
  if (/^(https?:|mailto:)/.test(href)) return href;
  if (href.startsWith('#')) return href.length > 1 ? `#/help/${current}/${href.slice(1)}` : undefined;
  const [path = '', section] = href.split('#');
  const name = path.split('/').pop() ?? '';
  const target = known.find((doc) => doc.file.split('/').pop() === name);
  if (!target) return undefined;
  return `#/help/${target.id}${section ? `/${section}` : ''}`;
}

/** A path of a test file (`electron/x/y.test.ts`, `*.integration.test.ts`, `e2e/specs/z.spec.ts`). */
const TEST_PATH = String.raw`[\w./*-]*\.(?:test|spec)\.ts(?:#[\w-]+)?`;

/**
 * A document's text without paths of test files (issue 56): a link to one keeps its words unless they
 * are the path; a path alone, in code or not, becomes "a test"; "(see …)" around only that goes.
 */
export function withoutTestPaths(text: string): string {
  return text
    .replace(new RegExp(String.raw`\[([^\]]+)\]\(${TEST_PATH}\)`, 'g'), (_, label: string) => label)
    .replace(new RegExp(String.raw` ?\((?:see |in |tested in |tested by )?\x60?${TEST_PATH}\x60?\)`, 'g'), '')
    .replace(new RegExp(String.raw`\x60${TEST_PATH}\x60|${TEST_PATH}`, 'g'), 'a test');
}
