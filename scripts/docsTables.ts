// `npm run docs:tables`: writes the tables the docs take from the registry: the error table of docs/app.md (from
// ERROR_CODES and ERROR_ADVICE), the operation table of PROTOCOL.md (from the registry and OPERATION_DOCS), and the
// control API's bodies in docs/dev.md (from CONTROL_BODIES, which the platform checks bodies with).
// `--check` fails, naming the file, when a file differs from what it would write. test/protocol/registry.test.ts
// runs the same check in `npm test`.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { CONTROL_BODIES } from '../src/dev/controlSchemas';
import { methods, type OperationDef } from '../src/protocol/methods';
import { none } from '../src/protocol/operations/define';
import { ERROR_CODES } from '../src/protocol/errorCodes';
import { ERROR_ADVICE } from './errorAdvice';
import { OPERATION_DOCS } from './operationDocs';

/** A Markdown table with its columns padded, for reading in plain text too. */
function markdownTable(head: string[], rows: string[][]): string {
  // An escaped bar (`\|`) is one character wide once rendered, but two in the source, which is what is padded.
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** The error table: code, meaning, retriable, what to do. */
export function errorTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, retriable]) => {
    const advice = ERROR_ADVICE[code as keyof typeof ERROR_CODES];
    return [`\`${code}\``, advice.meaning, retriable ? 'yes' : 'no', advice.todo];
  });
  return markdownTable(['Code', 'Meaning', 'Retriable', 'What to do'], rows);
}

/** The Person column of an operation that waits on a person: `yes`, and the error a host answers when they refuse. */
const person = (def: OperationDef) => (def.asks?.refusal ? `yes; refused: \`${def.asks.refusal[0]}\`` : 'yes');

/**
 * The operation table: method, params, result, scope, person. A notification's result is `notification` and an
 * empty answer's is `null`, from the registry; OPERATION_DOCS says the rest, and must not say those two.
 */
export function operationTable(): string {
  const rows = Object.entries(methods as Record<string, OperationDef>).map(([name, def]) => {
    const doc = OPERATION_DOCS[name as keyof typeof OPERATION_DOCS];
    const known = def.kind === 'notification' ? 'notification' : def.result === none ? '`null`' : undefined;
    if ((known === undefined) === (doc.result === undefined))
      throw new Error(
        `scripts/operationDocs.ts: ${name} ${known ? `answers ${known} (from the registry): remove its result` : 'needs a result'}`,
      );
    return [
      `\`${name}\``,
      doc.params,
      known ?? doc.result!,
      def.scope ? `\`${def.scope}\`` : '',
      def.kind === 'prompt' ? person(def) : '',
    ];
  });
  return markdownTable(['Method', 'Params', 'Result', 'Scope', 'Person'], rows);
}

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  maxLength?: number;
  maximum?: number;
};

/** A field's type as the table says it: `string` (at most 256), `'user' | 'admin'`, `object`. */
function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeOf).join(' \\| ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'values'}`;
  const bound = schema.maxLength ?? schema.maximum;
  return `${schema.type ?? 'any JSON'}${bound === undefined ? '' : ` (at most ${bound})`}`;
}

/** An object's fields, each with its type, `*` marking the required ones. */
function fieldsOf(schema: JsonSchema): string {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => `{ ${fieldsOf(v)} }`).join(' or ');
  const entries = Object.entries(schema.properties ?? {});
  if (!entries.length) return '`{}`';
  return entries
    .map(([name, field]) => `\`${name}\`${schema.required?.includes(name) ? '*' : ''}: ${typeOf(field)}`)
    .join(', ');
}

/** The control API's bodies: route, and its fields (`*` required); no other field is taken. */
export function controlBodyTable(): string {
  const rows = Object.entries(CONTROL_BODIES).map(([route, schema]) => [
    `\`${route}\``,
    fieldsOf(z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema),
  ]);
  return markdownTable(['Route', 'Body (* required; no other field)'], rows);
}

/** The generated tables: the file each lives in, its marker's name, and how it is made. */
const TABLES = [
  { file: 'docs/app.md', marker: 'error-table', make: errorTable },
  { file: 'PROTOCOL.md', marker: 'operation-table', make: operationTable },
  { file: 'docs/dev.md', marker: 'control-bodies', make: controlBodyTable },
] as const;

/** `text` (the content of `file`) with the table between `<!-- marker: ... -->` and `<!-- /marker -->` made anew. */
export function withTable(text: string, file: string): string {
  const table = TABLES.find((t) => t.file === file);
  if (!table) throw new Error(`${file} has no generated table`);
  const start = text.indexOf(`<!-- ${table.marker}:`);
  const end = text.indexOf(`<!-- /${table.marker} -->`);
  if (start < 0 || end < start)
    throw new Error(`${file}: the <!-- ${table.marker}: ... --> and <!-- /${table.marker} --> markers are missing`);
  const marker = text.slice(start, text.indexOf('\n', start));
  return `${text.slice(0, start)}${marker}\n${table.make()}\n${text.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Run from the repository's root (the npm script does).
  for (const { file } of TABLES) {
    const path = resolve(process.cwd(), file);
    const text = readFileSync(path, 'utf8');
    const next = withTable(text, file);
    if (!process.argv.includes('--check')) writeFileSync(path, next);
    else if (next !== text) {
      console.error(`${file}: a generated table differs from the registry; run npm run docs:tables`);
      process.exitCode = 1;
    }
  }
}
