import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';

// Script files, and the files whose `<script>` elements hold code: Vue and Svelte components, HTML pages.
const SOURCE = /\.(?:[mc]?[jt]s|[jt]sx|vue|svelte|html?)$/;
// Build output and tooling folders hold no page of the app's own.
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  'build',
  'out',
  'coverage',
  'storybook-static',
  'playwright-report',
  'test-results',
  '__tests__',
  '__mocks__',
]);
const TEST_FILE = /\.(?:test|spec)\.[^.]+$/;
// vite.config.ts, vitest.config.mts, eslint.config.js, jest.config.cjs…: the tools' files, not the app's.
const CONFIG_FILE = /\.config\.[^.]+$/;

/**
 * Which files to scan, as globs relative to the scanned directory.
 * @public
 */
export interface SourceFilter {
  include?: string[];
  exclude?: string[];
}

/**
 * Lists the mini app's source files under a directory, sorted: `.js .mjs .cjs .ts .mts .cts .tsx .jsx`, and the
 * files whose `<script>` elements hold code: `.vue .svelte .html`.
 *
 * @remarks
 * Skips `node_modules`, build output (`dist`, `build`, `out`, `coverage`, test reports), hidden directories
 * (`.next`, `.svelte-kit`), config files (`*.config.*`), declaration files, and test files (`*.test.*`, `*.spec.*`,
 * `__tests__`, `__mocks__`): a handler registered in a test against a mock host proves nothing about the app. Then keeps the
 * files that match `filter.include` (all when empty) and not `filter.exclude`. Symbolic links are not followed, so
 * a link cannot loop or reach outside the project.
 */
export async function listSourceFiles(dir: string, filter: SourceFilter = {}): Promise<string[]> {
  const found: string[] = [];
  const included = filter.include?.length ? picomatch(filter.include.map(asGlob), { dot: true }) : () => true;
  const excluded = filter.exclude?.length ? picomatch(filter.exclude.map(asGlob), { dot: true }) : () => false;
  const wanted = (path: string) => {
    const rel = relative(dir, path).split(sep).join('/');
    return included(rel) && !excluded(rel);
  };
  const walk = async (current: string): Promise<void> => {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) await walk(path);
      } else if (
        entry.isFile() &&
        SOURCE.test(entry.name) &&
        !/\.d\.[mc]?ts$/.test(entry.name) &&
        !TEST_FILE.test(entry.name) &&
        !CONFIG_FILE.test(entry.name) &&
        wanted(path)
      ) {
        found.push(path);
      }
    }
  };
  await walk(dir);
  return found.sort();
}

/** A tsconfig-style entry names a folder (`src`) or a glob (`src/**\/*.ts`); a folder means everything under it. */
function asGlob(pattern: string): string {
  const clean = pattern.replace(/^\.\//, '').replace(/\/$/, '');
  return /[*?{[]/.test(clean) || SOURCE.test(clean) ? clean : `${clean}/**`;
}
