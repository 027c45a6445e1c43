/**
 * Strict JSON reading for the editors (no comments, no trailing commas: the agent reads JSON), with
 * each syntax error placed where the mistake is. The parser notices a missing comma at the next
 * value (often on the next line) and a trailing comma at the closing bracket; the engineer should
 * be sent to the end of what came before.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

const WORDS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'a field name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected after this value',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'nothing may follow the closing }',
  UnexpectedEndOfString: 'a text value is not closed with "',
  UnexpectedEndOfComment: 'a comment is not closed',
  InvalidCommentToken: 'comments are not allowed',
};

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
    if (before >= 0 && code === 'CommaExpected') return { offset: before, length: 1, words: WORDS[code]! };
    if (before >= 0 && (code === 'PropertyNameExpected' || code === 'ValueExpected') && text[before] === ',')
      return { offset: before, length: 1, words: 'a comma before a closing bracket is not allowed' };
    return { offset: e.offset, length: Math.max(1, e.length), words: WORDS[code] ?? code };
  });
  return { document, errors };
}
