import { describeJsonProblem } from '../package/findJsonProblem';
import { decodeJsonText } from './decodeJsonText';

/** A JSON text's value, or why it is none, with a position when known. @internal */
export type JsonTextResult =
  | { ok: true; value: unknown; text: string }
  | { ok: false; code: 'bad_json'; message: string; line?: number; column?: number };

/**
 * Parses the bytes of a JSON file (`label` names it in messages): UTF-8, a leading byte order mark accepted, since
 * some Windows editors write one; an empty file, bytes that are not UTF-8, a syntax error (at its line and column),
 * a repeated key or a nesting too deep are said as such. The one reading of a manifest for `svc validate`, `svc pack`
 * and `svc dev`, so each says the same of the same file.
 *
 * @remarks
 * `JSON.parse` reports an offset (`at position 42`) for most errors; people need a line and a column, so the offset
 * is converted. Where it reports none (`Unexpected token ']'`), @babel/parser finds it.
 * @internal
 */
export async function parseJsonText(bytes: Uint8Array, label: string): Promise<JsonTextResult> {
  const decoded = decodeJsonText(bytes);
  if (!decoded.ok) return { ...decoded, code: 'bad_json', message: `${label} ${decoded.message}` };
  const body = decoded.text;
  if (body.trim() === '')
    return {
      ok: false,
      code: 'bad_json',
      message: `${label} is empty; write a JSON object (run \`svc init\` for a starter manifest)`,
      line: 1,
      column: 1,
    };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (cause) {
    const raw = (cause as Error).message;
    const match = /at position (\d+)/.exec(raw);
    const offset = match ? Number(match[1]) : await jsonErrorOffset(body);
    // V8 appends a copy of the text, or of its part around the error ('..., ..."[1, 'two']"... is not valid JSON');
    // the position says more.
    const reason = raw
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/ in JSON at position \d+/, '')
      .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
    if (offset === undefined) return { ok: false, code: 'bad_json', message: `${label} is not valid JSON: ${reason}` };
    const before = body.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const hint = /,\s*[}\]]/.test(body.slice(Math.max(0, offset - 20), offset + 1))
      ? ' (JSON allows no trailing comma)'
      : '';
    return {
      ok: false,
      code: 'bad_json',
      message: `${label}:${line}:${column} is not valid JSON: ${reason}${hint}`,
      line,
      column,
    };
  }
  // What JSON.parse reads but a host refuses (PACKAGE.md, check 10), said before validation, which recurses: a manifest
  // nested thousands deep would overflow its stack, and a repeated key is read one way here and another elsewhere.
  const problem = describeJsonProblem(body);
  if (problem) return { ok: false, code: 'bad_json', message: `${label} is refused: ${problem}` };
  return { ok: true, value, text: body };
}

type Node = { type: string; start: number; extra?: { raw?: string; trailingComma?: number; parenthesized?: boolean } };

/**
 * The offset of the first syntax error of a text `JSON.parse` refused: where @babel/parser stops, or, in a text
 * that is valid JavaScript, the first construct JSON lacks (a trailing comma, a single-quoted string, a comment...).
 * The parser is loaded here, for a file that is not JSON: a command reading a valid one (svc dev's start) never
 * loads it.
 */
async function jsonErrorOffset(text: string): Promise<number | undefined> {
  const { parseExpression } = await import('@babel/parser');
  let root: Node & { comments?: { start: number }[] };
  try {
    root = parseExpression(text) as unknown as Node & { comments?: { start: number }[] };
  } catch (error) {
    return (error as { pos?: number }).pos;
  }
  let first = firstNotJson(root);
  // A trailing comma is reported where JSON.parse stops: at the bracket after it.
  if (first !== undefined && text[first] === ',') first += /^,\s*/.exec(text.slice(first))?.[0].length ?? 1;
  const offsets = [first, ...(root.comments ?? []).map((c) => c.start)];
  const found = offsets.filter((o): o is number => o !== undefined);
  return found.length > 0 ? Math.min(...found) : undefined;
}

function firstNotJson(node: Node | null): number | undefined {
  if (!node) return undefined;
  if (node.extra?.parenthesized) return node.start;
  const n = node as Node & Record<string, unknown>;
  switch (node.type) {
    case 'NullLiteral':
    case 'BooleanLiteral':
      return undefined;
    case 'StringLiteral':
      return node.extra?.raw?.startsWith('"') ? undefined : node.start;
    case 'NumericLiteral':
      return /^(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(node.extra?.raw ?? '') ? undefined : node.start;
    case 'UnaryExpression':
      return n.operator === '-' && (n.argument as Node).type === 'NumericLiteral'
        ? firstNotJson(n.argument as Node)
        : node.start;
    case 'ArrayExpression':
      for (const element of n.elements as (Node | null)[]) {
        const at = element ? firstNotJson(element) : node.start;
        if (at !== undefined) return at;
      }
      return node.extra?.trailingComma;
    case 'ObjectExpression':
      for (const property of n.properties as (Node & Record<string, unknown>)[]) {
        const key = property.key as Node;
        if (property.type !== 'ObjectProperty' || property.computed || property.shorthand) return property.start;
        const at =
          key.type === 'StringLiteral' ? (firstNotJson(key) ?? firstNotJson(property.value as Node)) : key.start;
        if (at !== undefined) return at;
      }
      return node.extra?.trailingComma;
    default:
      return node.start;
  }
}
