/**
 * Strict JSON reading for the editors (no comments, no trailing commas: the agent reads JSON), with
 * each syntax error placed where the mistake is. The parser notices a missing comma at the next
 * value (often on the next line) and a trailing comma at the closing bracket; the engineer should
 * be sent to the end of what came before.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { text as catalogText } from '../i18n/language.js';

/** The parser's codes the catalog words (jsonSyntax.<code>); another code is shown as it is. */
const CODES = new Set(['InvalidSymbol', 'InvalidNumberFormat', 'PropertyNameExpected', 'ValueExpected', 'ColonExpected', 'CommaExpected', 'CloseBraceExpected', 'CloseBracketExpected', 'EndOfFileExpected', 'UnexpectedEndOfString', 'UnexpectedEndOfComment', 'InvalidCommentToken', 'TrailingComma'] as const);
type WordedCode = typeof CODES extends Set<infer C> ? C : never;
const words = (code: string): string => (CODES.has(code as WordedCode) ? catalogText(`jsonSyntax.${code as WordedCode}`) : code);

export interface JsonSyntaxError {
  offset: number;
  length: number;
  /** What is wrong, in words (without a prefix). */
  words: string;
}

export function readStrictJson(text: string): { document: unknown; errors: JsonSyntaxError[] } {
  const found: ParseError[] = [];
  const document: unknown = parse(text, found, { allowTrailingComma: false, disallowComments: true });
  const errors = found.map((e) => {
    const code = printParseErrorCode(e.error);
    let before = e.offset - 1;
    while (before >= 0 && /\s/.test(text[before]!)) before -= 1;
    if (before >= 0 && code === 'CommaExpected') return { offset: before, length: 1, words: words(code) };
    if (before >= 0 && (code === 'PropertyNameExpected' || code === 'ValueExpected') && text[before] === ',')
      return { offset: before, length: 1, words: words('TrailingComma') };
    return { offset: e.offset, length: Math.max(1, e.length), words: words(code) };
  });
  return { document, errors };
}
