import { readFileSync } from 'node:fs';
import { test } from 'vitest';
import { literalTexts } from '/work/wt/i18n/scripts/console-literal-text.ts';
test('list', () => {
  for (const f of (process.env.FILES ?? '').split(',')) console.log(literalTexts(f, readFileSync('/work/wt/i18n/renderer/src/' + f, 'utf8')).map((x) => `${f}:${x.line}: ${x.text}`).join('\n'));
});
