// Every relative link in the repository's Markdown (README, PROTOCOL.md, PACKAGE.md, docs/, the packages' READMEs)
// leads to a file that exists and, with a #fragment, to a heading of that file, as GitHub renders them. In the
// Markdown the packages ship, a link to a file they leave out (examples/, docs/images, test/) says so: its paragraph
// names the repository, so nobody looks for the file in node_modules.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const markdown = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((file) => resolve(root, file));
/** The text a reader follows links in: code blocks and code spans hold no links. */
const prose = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(file: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = heading
      .replace(/`/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count ? `${slug}-${count}` : slug);
  }
  return found;
}

test('every relative link in the Markdown leads to a file, and every #fragment to a heading', () => {
  expect(markdown.length).toBeGreaterThan(15);
  const broken: string[] = [];
  for (const file of markdown)
    for (const [, link = ''] of prose(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?|mailto|data):/.test(link)) continue;
      const [path = '', fragment] = link.split('#');
      const target = path ? resolve(dirname(file), path) : file;
      const where = `${relative(root, file)}: ${link}`;
      if (!existsSync(target)) broken.push(`${where} (no such file)`);
      else if (fragment && statSync(target).isFile() && target.endsWith('.md') && !anchors(target).has(fragment))
        broken.push(`${where} (no such heading)`);
    }
  expect(broken).toEqual([]);
});

test('a link in the Markdown a package ships leads to a file it ships, or its paragraph says it is in the repository', () => {
  const unmarked: string[] = [];
  let shipped = 0;
  for (const folder of [root, join(root, 'packages/svc-sdk-dev')]) {
    const packed: string[] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: folder, encoding: 'utf8' }),
    )[0].files.map((f: { path: string }) => f.path);
    const inPackage = (path: string) => packed.some((file) => file === path || file.startsWith(`${path}/`));
    // dist/ holds generated notices, not docs a reader follows.
    for (const file of packed.filter((path) => path.endsWith('.md') && !path.startsWith('dist/'))) {
      shipped++;
      // A paragraph, a list item or a table row: the smallest block a reader takes in with the link.
      for (const paragraph of prose(join(folder, file)).split(/\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.) |\|)/))
        for (const [, link = ''] of paragraph.matchAll(/\]\(([^)\s]+)\)/g)) {
          const path = link.split('#')[0]!;
          if (!path || /^(https?|mailto|data):/.test(link)) continue;
          const target = posix.normalize(posix.join(posix.dirname(file), path));
          if (!inPackage(target) && !/\brepository\b/.test(paragraph))
            unmarked.push(`${relative(root, join(folder, file))}: ${link} (not in the package)`);
        }
    }
  }
  expect(shipped).toBeGreaterThan(15);
  expect(unmarked).toEqual([]);
});
