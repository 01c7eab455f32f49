import type { TypeScriptApi } from './CliIo';

/**
 * Loads the TypeScript compiler installed next to the project, or returns `null` when it is missing.
 *
 * @remarks
 * `typescript` is an optional peer dependency: only `svc check` needs it. The specifier sits in a variable so that
 * bundlers leave the import alone instead of inlining the compiler into the CLI.
 */
export async function loadTypeScript(): Promise<TypeScriptApi | null> {
  const specifier = 'typescript';
  try {
    const loaded = (await import(specifier)) as TypeScriptApi & { default?: TypeScriptApi };
    return typeof loaded.createSourceFile === 'function' ? loaded : (loaded.default ?? null);
  } catch {
    return null;
  }
}
