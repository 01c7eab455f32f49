import { parseExpression } from '@babel/parser';

/** Splits a JSON path written by `formatJsonPath` (`$.actions[0]["a-b"]`) back into keys and indexes. */
function parseJsonPath(path: string): (string | number)[] {
  const keys: (string | number)[] = [];
  const token = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.slice(1).matchAll(token)) {
    if (match[1] !== undefined) keys.push(match[1]);
    else if (match[2] !== undefined) keys.push(Number(match[2]));
    else if (match[3] !== undefined) keys.push(JSON.parse(match[3]) as string);
  }
  return keys;
}

type Node = { type: string; loc: { start: { line: number; column: number } }; [key: string]: unknown };

// The last text parsed, and its tree: svc check locates every finding in one manifest, hundreds for a manifest of
// hundreds of actions, and parsing it again for each made the check quadratic (300 actions without a handler: 25 s).
let parsed: { text: string; root: Node | undefined } | undefined;

/**
 * Finds the 1-based line and column of a JSON path in a JSON text: the property name for a key, the element for an
 * index, or the closest existing parent when the value is missing. Line 1, column 1 when the text does not parse.
 * The text is parsed once for any number of paths in it.
 */
export function locateJsonPath(text: string, path: string): { line: number; column: number } {
  if (parsed?.text !== text) {
    let root: Node | undefined;
    try {
      root = parseExpression(text) as unknown as Node;
    } catch {
      root = undefined;
    }
    parsed = { text, root };
  }
  const { root } = parsed;
  if (!root) return { line: 1, column: 1 };
  let node: Node | undefined = root;
  let at: Node = root;
  for (const key of parseJsonPath(path)) {
    if (typeof key === 'number' && node?.type === 'ArrayExpression') node = (node.elements as Node[])[key] ?? undefined;
    else if (typeof key === 'string' && node?.type === 'ObjectExpression') {
      const property = (node.properties as Node[]).find(
        (p) => p.type === 'ObjectProperty' && (p.key as Node).type === 'StringLiteral' && (p.key as Node).value === key,
      );
      if (property) at = property.key as Node;
      node = property?.value as Node | undefined;
      if (!node) break;
      continue;
    } else node = undefined;
    if (!node) break;
    at = node;
  }
  return { line: at.loc.start.line, column: at.loc.start.column + 1 };
}
