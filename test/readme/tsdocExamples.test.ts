// Every ```ts block of every `@example` in the TSDoc of src/ compiles as a user's module, against the package's entry
// points as a user imports them (`svc-sdk`, `svc-sdk/host`, ...), mapped to their sources so no build is needed.
// An example that imports nothing is taken as written after its reader's import: it gets, from the entry point that
// exports the declaration it documents, every name of that entry it uses. An example that imports anything is a whole
// module and gets nothing. Other names come from the shared contexts (readmeContext.txt, tsdocContext.txt).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { blockCompilerOptions, compileBlocks } from './compileBlocks';
import { fencedBlocks } from './readmeBlocks';

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, '.tmp', 'tsdoc-examples');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each entry point with types of the two packages' package.json, and the source its types are built from (tsup.config.ts). */
const ENTRIES: Record<string, string> = {
  'svc-sdk': 'src/index.ts',
  'svc-sdk/global': 'src/global.ts',
  'svc-sdk/host': 'src/host/index.ts',
  'svc-sdk/host/core': 'src/host/core.ts',
  'svc-sdk/mock': 'src/mock/index.ts',
  'svc-sdk/manifest': 'src/manifest/index.ts',
  'svc-sdk/server': 'src/server/index.ts',
  'svc-sdk-dev': 'src/dev/index.ts',
  'svc-sdk/package': 'src/package/index.ts',
};
const paths = Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, [join(root, file)]]));

/** One ```ts block of an `@example`, and what its file is to compile it with. */
interface TsdocExample {
  /** The source file, relative to the repository. */
  file: string;
  /** 1-based line of its `@example` tag in that file. */
  tag: number;
  /** 1-based line of the block's first line of code in that file. */
  line: number;
  code: string;
  /** The import an example that imports nothing is read after (empty when it uses no name of its module). */
  header: string;
}

const sourceFiles = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .map((name) => join(root, 'src', name))
  .sort();

/**
 * The `@example` tags in src/, counted on the raw text, apart from the parsing below: any line of a doc comment that
 * starts with the tag. The parsing must find a ```ts block for each, so none is skipped unseen.
 */
function countExampleTags(): { file: string; line: number }[] {
  return sourceFiles.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((text, i) =>
        /^\s*(\/\*\*|\*)\s*@example\b/.test(text) ? [{ file: relative(root, file), line: i + 1 }] : [],
      ),
  );
}

/** Every doc comment (`/** ... *\/`) of a source file, found through the parser so strings and regexes are no trap. */
function docComments(source: ts.SourceFile): ts.CommentRange[] {
  const seen = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const range of ts.getLeadingCommentRanges(source.text, node.pos) ?? [])
      if (source.text.startsWith('/**', range.pos)) seen.set(range.pos, range);
    // A doc comment's own nodes are skipped: their positions fall inside it, where `//` or `/**` may be text.
    for (const child of node.getChildren(source))
      if (child.kind < ts.SyntaxKind.FirstJSDocNode || child.kind > ts.SyntaxKind.LastJSDocNode) visit(child);
  };
  visit(source);
  return [...seen.values()];
}

/** The lines of a doc comment without its `/**`, `*` and `*\/`, so its Markdown reads as written. */
function commentLines(text: string): string[] {
  return text.split('\n').map((line) =>
    line
      .replace(/^\s*\/\*\*\s?/, '')
      .replace(/\s*\*\/\s*$/, '')
      .replace(/^\s*\*(?: |$)/, ''),
  );
}

/** Each `@example` section of a doc comment (its first line's index and its text), up to the next block tag. */
function exampleSections(lines: string[]): { start: number; text: string }[] {
  const sections: { start: number; lines: string[] }[] = [];
  let current: { start: number; lines: string[] } | undefined;
  let fenced = false;
  lines.forEach((line, i) => {
    const tag = fenced ? null : /^\s*@(\w+)/.exec(line);
    if (tag) {
      current = tag[1] === 'example' ? { start: i, lines: [line.replace(/^\s*@example\s?/, '')] } : undefined;
      if (current) sections.push(current);
    } else current?.lines.push(line);
    if (/^\s*```/.test(line)) fenced = !fenced;
  });
  return sections.map((s) => ({ start: s.start, text: s.lines.join('\n') }));
}

/** The names a block declares anywhere (so must not be imported for it), and every identifier it mentions. */
function namesIn(code: string): { declared: Set<string>; used: Set<string> } {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
  const declared = new Set<string>();
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const declares =
        (ts.isVariableDeclaration(parent) ||
          ts.isFunctionDeclaration(parent) ||
          ts.isClassDeclaration(parent) ||
          ts.isInterfaceDeclaration(parent) ||
          ts.isTypeAliasDeclaration(parent) ||
          ts.isEnumDeclaration(parent) ||
          ts.isParameter(parent) ||
          ts.isImportSpecifier(parent) ||
          ts.isImportClause(parent) ||
          ts.isNamespaceImport(parent) ||
          (ts.isBindingElement(parent) && parent.propertyName !== node)) &&
        parent.name === node;
      (declares ? declared : used).add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { declared, used };
}

/** The top-level statement a comment belongs to: the one whose leading trivia or body holds it. */
const statementAt = (source: ts.SourceFile, pos: number) => source.statements.find((s) => s.pos <= pos && pos < s.end);

const key = (node: ts.Node) => `${node.getSourceFile().fileName}:${node.pos}`;

/** Reads every example of src/ with the program that knows what each entry point exports. */
function tsdocExamples(program: ts.Program): TsdocExample[] {
  const checker = program.getTypeChecker();
  const exportsOf = (file: string): string[] => {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!);
    return symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : [];
  };
  // The first entry point (in ENTRIES' order) that exports each top-level statement, as a user would import it.
  const entryOf = new Map<string, string>();
  for (const [name, file] of Object.entries(ENTRIES)) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(join(root, file))!)!;
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of target.declarations ?? []) {
        let statement: ts.Node = declaration;
        while (statement.parent && !ts.isSourceFile(statement.parent)) statement = statement.parent;
        if (!entryOf.has(key(statement))) entryOf.set(key(statement), name);
      }
    }
  }
  const entryNames = new Map(Object.entries(ENTRIES).map(([name, file]) => [join(root, file), name]));

  return sourceFiles.flatMap((file) => {
    const source = program.getSourceFile(file)!;
    return docComments(source).flatMap((range) => {
      const lines = commentLines(source.text.slice(range.pos, range.end));
      const firstLine = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      const statement = statementAt(source, range.pos);
      const entry =
        (statement && entryOf.get(key(statement))) ?? entryNames.get(file) ?? relative(dir, file).replace(/\.ts$/, '');
      const moduleFile = entry.startsWith('.') ? file : join(root, ENTRIES[entry]!);
      return exampleSections(lines).flatMap((section) =>
        fencedBlocks(section.text)
          .filter((block) => block.lang === 'ts' || block.lang === 'typescript')
          .map((block) => {
            const { declared, used } = namesIn(block.code);
            const imports = /^\s*import\s/m.test(block.code)
              ? []
              : exportsOf(moduleFile).filter((name) => used.has(name) && !declared.has(name));
            return {
              file: relative(root, file),
              tag: firstLine + section.start,
              // The fence is the section's line `block.line`, and the code starts on the line after it.
              line: firstLine + section.start + block.line,
              code: block.code,
              header: imports.length > 0 ? `import { ${imports.sort().join(', ')} } from '${entry}';` : '',
            };
          }),
      );
    });
  });
}

describe('the TSDoc examples of src/', () => {
  const options = blockCompilerOptions(paths);
  const program = ts.createProgram(
    [...sourceFiles, ...Object.values(ENTRIES).map((file) => join(root, file))],
    options,
  );
  const examples = tsdocExamples(program);

  test('the entry points they are checked against are all of package.json with types (svc-sdk and svc-sdk-dev)', () => {
    const typed = ['package.json', 'packages/svc-sdk-dev/package.json'].flatMap((file) => {
      const pkg = JSON.parse(readFileSync(join(root, file), 'utf8')) as {
        name: string;
        exports: Record<string, string | { import?: { types?: string } }>;
      };
      return Object.entries(pkg.exports)
        .filter(([, target]) => typeof target === 'object' && target.import?.types)
        .map(([path]) => `${pkg.name}${path.slice(1)}`);
    });
    expect(Object.keys(ENTRIES).sort()).toEqual(typed.sort());
  });

  test('has a ```ts block for every @example tag', () => {
    const tags = countExampleTags();
    const found = new Set(examples.map((e) => `${e.file}:${e.tag}`));
    expect(tags.length).toBeGreaterThan(30);
    expect(tags.map((tag) => `${tag.file}:${tag.line}`).filter((tag) => !found.has(tag))).toEqual([]);
  });

  test('every example compiles', () => {
    const byName = new Map(examples.map((e) => [`${e.file.replaceAll('/', '_')}-${e.line}.ts`, e]));
    const files = Object.fromEntries(
      [...byName].map(([name, e]) => [name, e.header ? `${e.header}\n${e.code}` : e.code]),
    );
    const problems = compileBlocks(dir, files, {
      contexts: [new URL('readmeContext.txt', import.meta.url), new URL('tsdocContext.txt', import.meta.url)],
      paths,
      oldProgram: program,
    }).map((d) => {
      const example = d.file ? byName.get(d.file) : undefined;
      if (!example) return d.file ? `${d.file}:${d.line}: ${d.message}` : d.message;
      const line = example.line + (d.line ?? 1) - 1 - (example.header ? 1 : 0);
      return `${example.file}:${line}: ${d.message}`;
    });
    expect(problems).toEqual([]);
    // What was compiled, counted apart from the parsing: no example is skipped unseen.
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(countExampleTags().length);
  });
});
