/** One setting line of an env file: `NAME=value` (quotes around the value removed), or a line that is no setting. */
export interface EnvFileLine {
  /** The line's number, from 1. */
  number: number;
  /** The setting's name, or undefined for a line that is not `NAME=value`. */
  name?: string;
  value?: string;
}

/**
 * The lines of an env file, the form `svc dev --backend-env` writes (`KEY=value`, `export KEY=value`), blank lines
 * and `#` comments left out. `svc trigger` reads its settings from them; `svc dev` checks that a file it would
 * rewrite holds no other settings.
 */
export function envFileLines(text: string): EnvFileLine[] {
  return text.split(/\r?\n/).flatMap((line, i) => {
    if (!line.trim() || line.trimStart().startsWith('#')) return [];
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) return [{ number: i + 1 }];
    return [{ number: i + 1, name: match[1]!, value: match[2]!.replace(/^(['"])(.*)\1$/, '$2') }];
  });
}
