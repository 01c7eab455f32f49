// Imports in src/ run one way: no file reaches itself through its imports (type-only imports included, since a
// type cycle ties two files as tightly for the reader). Read from the code's own import statements.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

/** The files of src/ a file imports (relative specifiers, resolved as the bundler does). */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g,
  )) {
    const spec = match[1] ?? match[2]!;
    const base = resolve(dirname(file), spec);
    const target = [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => files.has(candidate));
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
