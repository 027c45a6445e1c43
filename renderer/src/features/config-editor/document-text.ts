import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

const WORDS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'a field name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'nothing may follow the closing }',
  UnexpectedEndOfString: 'a text value is not closed with "',
  UnexpectedEndOfComment: 'a comment is not closed',
  InvalidCommentToken: 'comments are not allowed',
};

/** The editor text read as JSON, strictly (no comments, no trailing commas: the agent reads JSON). */
export function readDocument(text: string): { document: unknown; syntax: SyntaxProblem[] } {
  const errors: ParseError[] = [];
  const document: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  const syntax = errors.map((e) => {
    const code = printParseErrorCode(e.error);
    return { offset: e.offset, length: Math.max(1, e.length), message: `JSON syntax: ${WORDS[code] ?? code}.` };
  });
  if (text.trim() === '') syntax.push({ offset: 0, length: 1, message: 'The configuration is empty.' });
  return { document, syntax };
}

export function formatDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
