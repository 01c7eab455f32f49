import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../../src/cli/runCli';
import type { CliIo } from '../../src/cli/CliIo';

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The terminal of an in-process CLI command: what it wrote, and the io to pass to it. */
export function captureIo(cwd: string, onWrite: () => void = () => {}) {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      cwd,
      stdout: {
        write: (s: string) => {
          out.stdout += s;
          onWrite();
        },
      },
      stderr: {
        write: (s: string) => {
          out.stderr += s;
          onWrite();
        },
      },
    },
  };
}

/** Runs `svc <argv>` in-process with captured output. */
export async function runSvc(argv: string[], cwd: string, extra: Partial<CliIo> = {}): Promise<CliRun> {
  const { out, io } = captureIo(cwd);
  const code = await runCli(argv, { ...io, ...extra });
  return { code, ...out };
}

/** Creates a temporary directory holding the given files (contents as text, or values written as JSON). */
export function tempProject(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return dir;
}
