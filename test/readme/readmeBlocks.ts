// The README's code blocks, read from the file itself: what a newcomer copies is what the tests compile.
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
  const lines = readFileSync(path, 'utf8').split('\n');
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
