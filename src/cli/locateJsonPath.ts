import type { TypeScriptApi } from './CliIo';
import type * as TS from 'typescript';

/** Splits a JSON path written by `formatJsonPath` (`$.actions[0]["a-b"]`) back into keys and indexes. */
export function parseJsonPath(path: string): (string | number)[] {
  const keys: (string | number)[] = [];
  const token = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.slice(1).matchAll(token)) {
    if (match[1] !== undefined) keys.push(match[1]);
    else if (match[2] !== undefined) keys.push(Number(match[2]));
    else if (match[3] !== undefined) keys.push(JSON.parse(match[3]) as string);
  }
  return keys;
}

/**
 * Finds the 1-based line and column of a JSON path in a JSON text: the property name for a key, the element for an
 * index, or the closest existing parent when the value is missing.
 */
export function locateJsonPath(ts: TypeScriptApi, text: string, path: string): { line: number; column: number } {
  const file = ts.parseJsonText('manifest.json', text);
  let node: TS.Node | undefined = file.statements[0]?.expression;
  let at: TS.Node = node ?? file;
  for (const key of parseJsonPath(path)) {
    if (node && typeof key === 'number' && ts.isArrayLiteralExpression(node)) node = node.elements[key];
    else if (node && typeof key === 'string' && ts.isObjectLiteralExpression(node)) {
      const property = node.properties.find((p): p is TS.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isStringLiteral(p.name) && p.name.text === key);
      if (property) at = property.name;
      node = property?.initializer;
      if (!node) break;
      continue;
    } else node = undefined;
    if (!node) break;
    at = node;
  }
  const { line, character } = file.getLineAndCharacterOfPosition(at.getStart(file));
  return { line: line + 1, column: character + 1 };
}
