// Type-checks code taken from documentation (the README and its guides, the TSDoc `@example` blocks of src/) as a
// user's own files would be: each block is a module of its own, beside context files that declare what its prose
// takes for granted. One set of compiler options for all of them, so a block passes here exactly when it would pass
// in a strict user project.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');

/** What the compiler says about one block: the file it was written to (relative to its folder), the line, the text. */
export interface BlockDiagnostic {
  /** The block's file name; absent for a message about the whole program (an option, a missing lib). */
  file?: string;
  /** 1-based line in that file. */
  line?: number;
  message: string;
}

/** How {@link compileBlocks} builds its program. */
export interface CompileBlocksOptions {
  /** Declaration files kept as .txt (so the project's own type-check leaves out their globals), copied in as .d.ts. */
  contexts: URL[];
  /** Module names mapped to files, such as `svc-sdk/host` to src/host/index.ts; unmapped ones resolve as usual. */
  paths?: Record<string, string[]>;
  /** A program over the same files, whose parsed sources are reused. */
  oldProgram?: ts.Program;
}

/** The compiler options every documentation block is checked with: a strict ES2022 project for browsers and Node. */
export function blockCompilerOptions(paths?: Record<string, string[]>): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    ignoreDeprecations: '6.0',
    ...(paths ? { paths } : {}),
  };
}

/**
 * Writes each block to `dir` (emptied first) as a module, type-checks them together and returns the messages about
 * the blocks themselves; files the blocks import are the package's, checked by the project's own type-check.
 */
export function compileBlocks(
  dir: string,
  files: Record<string, string>,
  options: CompileBlocksOptions,
): BlockDiagnostic[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (const context of options.contexts) {
    const file = join(dir, basename(context.pathname).replace(/\.txt$/, '.d.ts'));
    writeFileSync(file, readFileSync(context, 'utf8'));
    names.push(file);
  }
  const blocks: string[] = [];
  for (const [name, code] of Object.entries(files)) {
    const file = join(dir, name);
    // `export {}` makes a block without imports a module too, so blocks do not share top-level names.
    writeFileSync(file, `${code}\nexport {};\n`);
    blocks.push(file);
  }
  const program = ts.createProgram(
    [...names, ...blocks],
    blockCompilerOptions(options.paths),
    undefined,
    options.oldProgram,
  );
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...blocks.flatMap((file) => {
      const source = program.getSourceFile(file)!;
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  return diagnostics.map((d) => ({
    ...(d.file
      ? {
          file: d.file.fileName.slice(dir.length + 1),
          line: d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
        }
      : {}),
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}
