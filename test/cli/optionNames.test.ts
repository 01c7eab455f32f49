// Every option a shipped text tells a person to pass to `svc <command>` is one that `svc <command> --help` lists.
// A renamed option (`--env-file` became `--backend-env`) otherwise lives on in a page, a starter file or a guide,
// and following it fails (Node 20 reads `--env-file` itself and exits before our code runs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from './runInProcess';

const root = resolve(__dirname, '../..');

/** The texts a user reads: the source (the page, the CLI's messages, the starter's files), docs, examples. */
function shippedTexts(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mts|js|mjs|md|json|html)$/.test(name)) out.push(path);
    }
  };
  for (const dir of ['src', 'docs', 'examples']) walk(join(root, dir));
  out.push(join(root, 'README.md'), join(root, 'PROTOCOL.md'));
  return out;
}

/** The `--options` each `svc <command>` (or `svc-sdk <command>`) in a text is given, up to the end of the command. */
function optionsInText(text: string, commands: ReadonlySet<string>): { command: string; option: string }[] {
  const found: { command: string; option: string }[] = [];
  // A command runs to the end of its line, its code span or its quotes, or the next shell operator.
  for (const match of text.matchAll(/\bsvc(?:-sdk)? ([a-z]+)([^\n`'"();|&]*)/g)) {
    const command = match[1]!;
    if (!commands.has(command)) continue;
    for (const option of match[2]!.matchAll(/(?:^|\s)--([a-z][a-z0-9-]*)/g))
      found.push({ command, option: option[1]! });
  }
  return found;
}

async function listedOptions(command: string): Promise<Set<string>> {
  const { code, stdout } = await runSvc([command, '--help'], root);
  expect(code).toBe(0);
  return new Set([...stdout.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!));
}

describe('option names in shipped texts', () => {
  it('finds the options given to a command, and only those', () => {
    const commands = new Set(['dev', 'check']);
    expect(optionsInText('svc dev --env-file rewrites the file', commands)).toEqual([
      { command: 'dev', option: 'env-file' },
    ]);
    expect(
      optionsInText('run `npx svc-sdk dev dist --backend-env .env`, then node --env-file=.env x.js', commands),
    ).toEqual([{ command: 'dev', option: 'backend-env' }]);
    expect(optionsInText('the svc object; svc check --include "src/**"', commands)).toEqual([
      { command: 'check', option: 'include' },
    ]);
  });

  it('every option a text gives `svc <command>` is listed by `svc <command> --help`', async () => {
    const main = await runSvc(['--help'], root);
    const commands = new Set([...main.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!));
    expect(commands.has('dev')).toBe(true);
    const listed = new Map<string, Set<string>>();
    for (const command of commands) listed.set(command, await listedOptions(command));
    const unknown: string[] = [];
    let checked = 0;
    for (const file of shippedTexts()) {
      for (const { command, option } of optionsInText(readFileSync(file, 'utf8'), commands)) {
        checked++;
        if (!listed.get(command)!.has(option)) unknown.push(`${relative(root, file)}: svc ${command} --${option}`);
      }
    }
    expect(unknown).toEqual([]);
    // The scan must have read the places where options are written down (docs/svc-dev.md alone names dozens).
    expect(checked).toBeGreaterThan(20);
  });
});
