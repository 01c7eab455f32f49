// Imports in src/ run one way: no file reaches itself through its imports (type-only imports included, since a
// type cycle ties two files as tightly for the reader), and svc dev's three products meet only at their seams. Read
// from the code's own import statements.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * The files of src/ a file imports (relative specifiers, resolved as the bundler does); with `runtime`, only the
 * imports that stay in the built code (not `import type` nor `export type`).
 */
function importsOf(file: string, files: ReadonlySet<string>, runtime = false): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s(type\s)?[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g,
  )) {
    if (runtime && match[1]) continue;
    const spec = match[2] ?? match[3]!;
    const base = resolve(dirname(file), spec);
    const target = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) =>
      files.has(candidate),
    );
    if (target) found.push(target);
  }
  return found;
}

/** Every cycle's files, found by a depth-first walk (each reported once, from its first file). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('imports in src/', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('form no cycle', () => {
    const files = new Set(sourceFiles(src));
    const graph = new Map([...files].map((file) => [file, importsOf(file, files)]));
    // The walk saw the imports: the dev platform alone imports dozens of files.
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
    const cycles = findCycles(graph).map((cycle) => cycle.map((f) => relative(root, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });
});

describe("svc dev's three products (src/dev)", () => {
  const dev = join(src, 'dev');
  const files = new Set(sourceFiles(src));
  const productOf = (file: string) => {
    const [first, second] = relative(dev, file).split('/');
    if (first === 'index.ts') return 'entry';
    return second === undefined ? 'shared' : first;
  };
  /** Every import of code (types aside) from one product's files into another product's. */
  const crossings = () =>
    [...files]
      .filter((file) => file.startsWith(`${dev}/`))
      .flatMap((file) =>
        importsOf(file, files, true)
          .filter((target) => target.startsWith(`${dev}/`) && productOf(target) !== productOf(file))
          .map(
            (target) =>
              `${productOf(file)} -> ${productOf(target)}: ${relative(dev, file)} -> ${relative(dev, target)}`,
          ),
      );

  it('are the folders platform, messenger and mcp beside the files they share and the entry', () => {
    expect(new Set([...files].filter((f) => f.startsWith(`${dev}/`)).map(productOf))).toEqual(
      new Set(['entry', 'shared', 'platform', 'messenger', 'mcp']),
    );
  });

  it('import one way: the platform composes the messenger page and the agent bridge; those two and the shared files import no other product', () => {
    const allowed = new Set([
      'platform -> messenger',
      'platform -> mcp',
      'platform -> shared',
      'messenger -> shared',
      'mcp -> shared',
      // index.ts is svc-sdk-dev's entry, above every product.
      'entry -> shared',
      'entry -> platform',
      'entry -> messenger',
      'entry -> mcp',
    ]);
    const seen = crossings();
    // The walk saw the seams: the platform serves the page's HTML and attaches the bridge.
    expect(seen.some((c) => c.startsWith('platform -> mcp'))).toBe(true);
    expect(seen.filter((c) => !allowed.has(c.split(':')[0]!))).toEqual([]);
  });

  it('keep Node out of the messenger page: its files import no node: module', () => {
    const node = [...files]
      .filter((file) => productOf(file) === 'messenger' && file.startsWith(`${dev}/`))
      .filter((file) => /from\s+'node:/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(dev, file));
    expect(node).toEqual([]);
  });
});
