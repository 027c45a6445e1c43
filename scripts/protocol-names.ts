/**
 * Where a component type's name is written outside its own folders (issue 31 point 1, decision 0055):
 * the product files (electron/, shared/, renderer/; tests, test helpers and generated files left out)
 * that hold the name as a string literal, module specifiers ('mqtt' the npm package) and comments not
 * counted. A protocol is meant to be its folders plus its registry lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './import-graph.js';

/** Generated from the schema (npm run api:types), so it follows the registries by itself. */
const GENERATED = new Set(['renderer/src/api/openapi-types.ts']);
const KINDS = ['receivers', 'transmits', 'parsers', 'transforms'];

/** A name's own folders: its folder of each kind on both sides, and the agent's code it shares between kinds. */
export function isOwnFile(file: string, name: string): boolean {
  // Folders are kebab-case: convert_timestamps lives in convert-timestamps/.
  const folder = name.replaceAll('_', '-');
  const own = [
    ...KINDS.flatMap((kind) => [`shared/config/${kind}/${folder}/`, `electron/agent/${kind}/${folder}/`]),
    `electron/agent/${folder}/`,
  ];
  return own.some((folder) => file.startsWith(folder));
}

function isModuleSpecifier(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return parent.moduleSpecifier === node;
  if (ts.isExternalModuleReference(parent) || ts.isImportTypeNode(parent.parent ?? parent)) return true;
  return ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword;
}

/** The string literals of a file's code (not its comments, not its module specifiers). */
function stringLiterals(file: string, text: string): Set<string> {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
    if (literal && !isModuleSpecifier(node)) found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** For each name, the product files outside its own folders that write it as a string (repo-relative, sorted). */
export function filesNaming(repo: string, names: readonly string[]): Map<string, string[]> {
  const files = sourceFiles(['electron', 'shared', 'renderer'].map((dir) => path.join(repo, dir)))
    .map((file) => path.relative(repo, file).split(path.sep).join('/'))
    .filter((file) => !GENERATED.has(file) && !file.split('/').includes('testing'));
  const out = new Map(names.map((name) => [name, [] as string[]]));
  for (const file of files) {
    const text = fs.readFileSync(path.join(repo, file), 'utf8');
    const candidates = names.filter((name) => !isOwnFile(file, name) && text.includes(name));
    if (candidates.length === 0) continue;
    const literals = stringLiterals(file, text);
    for (const name of candidates) if (literals.has(name)) out.get(name)!.push(file);
  }
  return out;
}
