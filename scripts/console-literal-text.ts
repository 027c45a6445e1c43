/**
 * Finds UI text written into components instead of taken from the catalog (issue 57): JSX text with a
 * letter, and string literals with a letter in text-bearing attributes or directly inside a JSX
 * expression. Used by console-literal-text.test.ts over renderer/src/**\/*.tsx; kept apart so that it is tested
 * on small sources too. Technical words a user never reads as language (Tributary, API, JSON, CSV,
 * units, symbols) and the contents of <code> are allowed.
 */
import ts from 'typescript';

/** Attributes whose value a user reads or hears. */
const TEXT_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'text', 'confirmLabel', 'cancelLabel', 'heading', 'hint', 'summary', 'message', 'description', 'caption']);

/** Words that are the same in every language the console ships (names, acronyms, units). */
const ALLOWED = /\b(Tributary|API|JSON|CSV|XML|OPC UA|MQTT|HTTPS?|KPIs?|ID|OK|UTC|KiB|MiB|GiB|ms|s|min|h|px)\b/gu;

export interface LiteralText {
  file: string;
  line: number;
  text: string;
}

function isUiText(raw: string): boolean {
  // An address is an example to type, the same in every language.
  return /\p{L}/u.test(raw.replace(/\bhttps?:\/\/\S*/g, '').replace(ALLOWED, ''));
}

const PASSES_VALUE = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.PlusToken]);

/**
 * The JSX expression a literal's value ends up in, through conditionals' branches, parentheses and
 * &&, ||, ??, +; undefined when the value goes elsewhere (a comparison, a call's argument).
 */
function enclosingJsxExpression(node: ts.Node): ts.JsxExpression | undefined {
  let child = node;
  let current: ts.Node | undefined = node.parent;
  while (current) {
    if (ts.isJsxExpression(current)) return current;
    if (ts.isParenthesizedExpression(current)) child = current;
    else if (ts.isConditionalExpression(current) && current.condition !== child) child = current;
    else if (ts.isBinaryExpression(current) && PASSES_VALUE.has(current.operatorToken.kind)) child = current;
    else return undefined;
    current = current.parent;
  }
  return undefined;
}

/** Whether a string literal is a child of JSX ({'text'}, {cond ? 'a' : 'b'}) or a text attribute's value. */
function shownInJsx(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): boolean {
  const expression = enclosingJsxExpression(node);
  if (!expression?.parent) return false;
  if (ts.isJsxAttribute(expression.parent)) return TEXT_ATTRIBUTES.has(expression.parent.name.getText());
  return true;
}

function templateText(node: ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): string {
  if (ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
}

/** Every literal UI text of one source file. */
export function literalTexts(file: string, source: string): LiteralText[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: LiteralText[] = [];
  const add = (node: ts.Node, text: string) => {
    if (isUiText(text)) found.push({ file, line: tree.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.replace(/\s+/g, ' ').trim() });
  };
  const visit = (node: ts.Node) => {
    // Inside <code>: a file, field or command name, written the same in every language.
    if (ts.isJsxText(node)) {
      if (!(ts.isJsxElement(node.parent) && node.parent.openingElement.tagName.getText() === 'code')) add(node, node.text);
    }
    else if (ts.isStringLiteral(node) && ts.isJsxAttribute(node.parent)) {
      if (TEXT_ATTRIBUTES.has(node.parent.name.getText())) add(node, node.text);
    } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) && shownInJsx(node)) {
      add(node, ts.isStringLiteral(node) ? node.text : templateText(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}
