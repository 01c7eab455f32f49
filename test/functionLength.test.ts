// Functions stay short enough to read in one screen: none over 120 lines in src/dev (the platform, the agent
// bridge, the store), none over 80 in the messenger page's components (src/dev/messenger). Measured from the code's own syntax
// tree (TypeScript's parser), each function from its first line to its last, nested functions included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every function of a file longer than `limit` lines: `path:line name (N lines)`. */
function longFunctions(path: string, text: string, limit: number): string[] {
  const file = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(file));
      const lines = lineOf(node.getEnd()) - first + 1;
      if (lines > limit) {
        const named = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
        const holder =
          ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
            ? node.parent.name.text
            : undefined;
        found.push(`${relative(root, path)}:${first} ${named ?? holder ?? '(anonymous)'} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('function length', () => {
  it('finds a function over the limit', () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `function long() {\n${body}\n}\nconst short = () => 1;\n`, 6)).toEqual([
      'x.ts:1 long (7 lines)',
    ]);
  });

  it('has no function over 120 lines in src/dev, and none over 80 in the messenger page (src/dev/messenger)', () => {
    const long = sourceFiles(join(root, 'src/dev')).flatMap((path) =>
      longFunctions(path, readFileSync(path, 'utf8'), path.includes(join('src', 'dev', 'messenger')) ? 80 : 120),
    );
    expect(long).toEqual([]);
  });
});
