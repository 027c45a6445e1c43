/**
 * The agent's message codes as the source says them (issue 57): every say('code', 'template',
 * { params }) in shared/ and electron/, and every literal marker category (a marker raised with a
 * plain text has the code marker.<category> and params.text). The English catalog of the console
 * (renderer/src/i18n/agent-messages/en.ts) is generated from this; the German one is checked
 * against it (scripts/agent-messages.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface SaidMessage {
  code: string;
  template: string;
  /** Parameter names the call passes (a spread adds the names of valueParams: actual, shown). */
  params: Set<string>;
  where: string;
}

const SPREAD_PARAMS: Record<string, string[]> = { valueParams: ['actual', 'shown'], valueWords: ['actual', 'shown'], 'this.usage': ['used', 'limit'] };

function sourceFiles(root: string, folder: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(root, relative));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(relative);
  }
  return out;
}

function paramNames(node: ts.Expression | undefined): Set<string> {
  const names = new Set<string>();
  if (!node || !ts.isObjectLiteralExpression(node)) return names;
  for (const property of node.properties) {
    if (ts.isSpreadAssignment(property)) {
      const callee = ts.isCallExpression(property.expression) ? property.expression.expression.getText() : '';
      for (const name of SPREAD_PARAMS[callee] ?? []) names.add(name);
    } else if (property.name) names.add(property.name.getText());
  }
  return names;
}

/** Every message the agent can say, and the literal marker categories, read from the source. */
export function readAgentMessages(root: string): { messages: SaidMessage[]; problems: string[] } {
  const messages: SaidMessage[] = [];
  const problems: string[] = [];
  for (const file of [...sourceFiles(root, 'shared'), ...sourceFiles(root, 'electron')]) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    if (!text.includes('say(') && !text.includes('.raise(')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const where = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const callee = node.expression;
        if (ts.isIdentifier(callee) && callee.text === 'say' && file !== path.join('shared', 'config', 'message.ts')) {
          const [code, template, params] = node.arguments;
          if (code && template && ts.isStringLiteralLike(code) && ts.isStringLiteralLike(template)) messages.push({ code: code.text, template: template.text, params: paramNames(params), where });
          else problems.push(`${where}: say() needs a literal code and template`);
        }
        if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'raise' && node.arguments.length === 4) {
          const category = node.arguments[2]!;
          if (ts.isStringLiteralLike(category)) messages.push({ code: `marker.${category.text}`, template: '{text}', params: new Set(['text']), where });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { messages, problems };
}

/** Placeholders of a template: {name}. */
export const placeholders = (template: string) => new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));

/** The English catalog's text: code → template, sorted by code. */
export function englishCatalog(messages: readonly SaidMessage[], extra: Record<string, string>): string {
  const byCode = new Map<string, string>(Object.entries(extra));
  for (const m of messages) byCode.set(m.code, m.template);
  const lines = [...byCode.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, template]) => `  ${JSON.stringify(code)}: ${JSON.stringify(template)},`);
  return [
    '/**',
    " * The agent's messages by code (issue 57): violations, health reasons, markers and quality findings",
    ' * carry a stable `code` and `params`; the console writes them from this catalog, with {param}',
    ' * placeholders. A code missing here falls back to the English text the API sent.',
    ' *',
    ' * Generated from the source by scripts/agent-messages.ts: UPDATE_AGENT_MESSAGES=1 npx vitest run scripts/agent-messages.test.ts',
    ' */',
    'export const AGENT_MESSAGES_EN: Record<string, string> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}
