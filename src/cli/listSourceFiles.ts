import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const SOURCE = /\.(?:[mc]?[jt]s|[jt]sx)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '__tests__', '__mocks__']);
const TEST_FILE = /\.(?:test|spec)\.[^.]+$/;

/**
 * Lists the mini app's source files under a directory, sorted: `.js .mjs .cjs .ts .mts .cts .tsx .jsx`.
 *
 * @remarks
 * Skips `node_modules`, `dist`, `coverage`, hidden directories, declaration files, and test files (`*.test.*`,
 * `*.spec.*`, `__tests__`, `__mocks__`): a handler registered in a test against a mock host proves nothing about the
 * app. Symbolic links are not followed, so a link cannot loop or reach outside the project.
 */
export async function listSourceFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string): Promise<void> => {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) await walk(path);
      } else if (entry.isFile() && SOURCE.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name) && !TEST_FILE.test(entry.name)) {
        found.push(path);
      }
    }
  };
  await walk(dir);
  return found.sort();
}
