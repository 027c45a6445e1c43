/**
 * How long the product's functions are (issue 51 point 4): lines of each function, method, arrow
 * function and React component, counted as ESLint's max-lines-per-function counts them with
 * skipBlankLines and skipComments (a line with code on it counts; blank and comment-only lines do
 * not). Tests and test support are not product code.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

const TEST_CODE = /\.test\.tsx?$|[\\/](testing|e2e)[\\/]/;

/** Product .ts/.tsx files under the roots (no tests, no test support, no generated types). */
export function productFiles(files: readonly string[]): string[] {
  return files.filter((file) => !TEST_CODE.test(file) && !file.endsWith('openapi-types.ts'));
}

/** Each function of `file` with more than `max` counted lines. */
export function longFunctions(file: string, max: number): LongFunction[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const counted = codeLines(text);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      let lines = 0;
      for (let l = first; l <= last; l += 1) if (counted[l]) lines += 1;
      if (lines > max) found.push({ file: path.relative(process.cwd(), file), line: first + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Per line: true when it holds code (not blank, not only a comment line or a JSDoc line). */
function codeLines(text: string): boolean[] {
  return text.split('\n').map((line) => {
    const t = line.trim();
    return t.length > 0 && !/^(\/\/|\/\*|\*)/.test(t);
  });
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}
