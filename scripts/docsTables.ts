// `npm run docs:tables`: writes the tables the docs take from the registry (the error table of docs/app.md, from
// ERROR_CODES and ERROR_ADVICE); `--check` fails, naming the file, when the file differs from what it would write.
// test/protocol/registry.test.ts runs the same check in `npm test`.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ERROR_ADVICE } from './errorAdvice';
import { ERROR_CODES } from '../src/protocol/errorCodes';

const START = '<!-- error-table:';
const END = '<!-- /error-table -->';

/** The error table as Markdown: code, meaning, retriable, what to do; columns padded for reading in plain text. */
export function errorTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, retriable]) => {
    const advice = ERROR_ADVICE[code as keyof typeof ERROR_CODES];
    return [`\`${code}\``, advice.meaning, retriable ? 'yes' : 'no', advice.todo];
  });
  const head = ['Code', 'Meaning', 'Retriable', 'What to do'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** docs/app.md with its error table as generated (the markers kept). */
export function withErrorTable(text: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/app.md: the ${START} ... ${END} markers are missing`);
  const marker = text.slice(start, text.indexOf('\n', start));
  return `${text.slice(0, start)}${marker}\n${errorTable()}\n${text.slice(end)}`;
}

if (import.meta.url == `file://${process.argv[1]}`) {
  // Run from the repository's root (the npm script does).
  const file = resolve(process.cwd(), 'docs/app.md');
  const text = readFileSync(file, 'utf8');
  const next = withErrorTable(text);
  if (process.argv.includes('--check')) {
    if (next != text) {
      console.error('docs/app.md: the error table differs from the registry; run npm run docs:tables');
      process.exit(1);
    }
  } else writeFileSync(file, next);
}
