// The code blocks of the README and the guides it links (docs/*.md), read from the files themselves: what a newcomer
// copies is what the tests compile.
import { readFileSync } from 'node:fs';

/** One fenced block of the README. */
export interface ReadmeBlock {
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The nearest heading above it. */
  section: string;
  /** Marked `<!-- fragment -->` on the line before: a snippet that needs context the README gives in prose. */
  fragment: boolean;
}

/** Every fenced block of README.md, in order. */
export function readmeBlocks(path = new URL('../../README.md', import.meta.url)): ReadmeBlock[] {
  return fencedBlocks(readFileSync(path, 'utf8'));
}

/** Every fenced block of a Markdown text, in order (the README's, a guide's, or a TSDoc comment's). */
export function fencedBlocks(text: string): ReadmeBlock[] {
  const lines = text.split('\n');
  const blocks: ReadmeBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,4} /.test(line)) section = line.replace(/^#+ /, '');
    const open = /^(\s*)```(\w+)\s*$/.exec(line);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(indent));
    blocks.push({
      lang: open[2]!,
      code: body.join('\n'),
      line: i + 1,
      section,
      fragment: lines[i - 1]?.trim() === '<!-- fragment -->',
    });
    i = j;
  }
  return blocks;
}

/** The guides the README links, one per audience: their blocks are held to the same rules as the README's. */
export const GUIDES = ['app', 'testing', 'manifest', 'backend', 'svc-dev', 'hosts', 'ship', 'contributing'].map(
  (name) => new URL(`../../docs/${name}.md`, import.meta.url),
);

/** Every fenced block of the README, then of each guide, each with the file it is in. */
export function docBlocks(): (ReadmeBlock & { file: string })[] {
  return [new URL('../../README.md', import.meta.url), ...GUIDES].flatMap((url) =>
    readmeBlocks(url).map((block) => ({ ...block, file: url.pathname.split('/').pop()!.replace('.md', '') })),
  );
}

/** The text of a guide (`docs/<name>.md`). */
export const guide = (name: string) => readFileSync(new URL(`../../docs/${name}.md`, import.meta.url), 'utf8');
