// The TypeScript of the README and its guides (docs/*.md) compiles as written, and its first mini app passes `svc check` against the manifest shown
// beside it. A block that is a snippet needing context from the prose is marked `<!-- fragment -->` before its fence.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runSvc, tempProject } from '../cli/runInProcess';
import { compileBlocks } from './compileBlocks';
import { docBlocks, guide, readmeBlocks } from './readmeBlocks';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository, so `svc-sdk` resolves to this package (its exports and built types).
const dir = join(root, '.tmp', 'readme-blocks');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function compile(files: Record<string, string>): string[] {
  // The mock-host snippet imports '../manifest.json': the first app's manifest stands in for it.
  const manifest = readmeBlocks().find((b) => b.section === 'A first mini app' && b.lang === 'json')!.code;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '..', 'manifest.json'), manifest);
  return compileBlocks(dir, files, { contexts: [new URL('readmeContext.txt', import.meta.url)] }).map(
    (d) => `${d.file ? `${d.file}:${d.line}: ` : ''}${d.message}`,
  );
}

describe('README', () => {
  const blocks = readmeBlocks();
  const compiled = docBlocks().filter((b) => b.lang === 'ts' && !b.fragment);

  test('has TypeScript blocks, and so have its guides, that compile (the first mini app among them)', () => {
    expect(compiled.length).toBeGreaterThan(10);
    expect(compiled[0]?.section).toBe('A first mini app');
    const files = Object.fromEntries(compiled.map((b) => [`${b.file}-line-${b.line}.ts`, b.code]));
    expect(compile(files)).toEqual([]);
  });

  test('the first mini app passes svc check against the manifest shown beside it', async () => {
    const first = blocks.filter((b) => b.section === 'A first mini app');
    const code = first.find((b) => b.lang === 'ts')!.code;
    const manifest = first.find((b) => b.lang === 'json')!.code;
    const project = tempProject({ 'manifest.json': manifest, 'src/main.ts': code });
    expect(await runSvc(['check'], project)).toEqual({
      code: 0,
      stdout: 'svc check: ok (1 source file, 1 declared action)\n',
      stderr: '',
    });
  });
});

describe('the command synopsis (docs/manifest.md)', () => {
  test('lists every command the CLI has, as `svc --help` does', async () => {
    const text = guide('manifest');
    const synopsis = text.slice(text.indexOf('### The `svc` command'));
    const help = (await runSvc(['--help'], process.cwd())).stdout;
    const commands = [...help.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThan(4);
    for (const command of commands) expect(synopsis, `svc ${command}`).toContain(`svc ${command} `);
  });
});
