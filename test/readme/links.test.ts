// Every relative link in the repository's Markdown (README, PROTOCOL.md, PACKAGE.md, docs/, the packages' READMEs)
// leads to a file that exists and, with a #fragment, to a heading of that file, as GitHub renders them.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
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
