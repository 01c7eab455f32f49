import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closestName } from '../manifest/closestName';
import { type CliIo, EXIT } from './CliIo';
import { attempt, usageError, withJsonReport } from './usageError';

/** One option of a command: how it parses, and its line in the help. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's name in the help, such as `x.y.z` (string options). */
  value?: string;
  /** The help text (a `\n` continues it on the next line); without it the option is accepted but not listed. */
  help?: string;
}

/** A command of the `svc` command line: its name, its help, and its options with their help. */
export interface CommandSpec<O extends Record<string, OptionSpec>, H = never> {
  name: string;
  /** The usage forms after `svc <name>`, such as `[dir]` (the first one takes the options). */
  usage: readonly string[];
  /** The main help's line for it: what it is called with (default `<name> <first usage>`). */
  synopsis?: string;
  /** The main help's description of it, one line. */
  summary: string;
  /** What the command does, between the usage and the options. */
  description: string;
  options: O;
  /** What follows the options: exit codes, examples. */
  footer: string;
  /** The command takes at most one positional argument, a directory. */
  oneDirectory?: boolean;
  /** Runs the command on its parsed arguments; resolves to the exit code. `hooks` are what only a test passes. */
  run(args: CommandArgs<O>, io: CliIo, hooks: H | undefined): Promise<number>;
}

/** What a command's `run` receives: its options, its positional arguments, and the directory they name. */
export interface CommandArgs<O extends Record<string, OptionSpec>> {
  values: OptionValues<O>;
  positionals: string[];
  /** The first positional argument (`.` without one), resolved against the working directory. */
  dir: string;
}

type Value<S extends OptionSpec> = S['type'] extends 'string' ? string : boolean;

/** The parsed options of a command, typed by its definition. */
export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]['multiple'] extends true ? Value<O[K]>[] : Value<O[K]>;
};

/** A defined command: its help, derived from the definition, and its runner. */
export interface Command<H = never> {
  name: string;
  synopsis: string;
  summary: string;
  help: string;
  /**
   * Parses the arguments and runs the command; resolves to the exit code. `--help` prints the help, and an unknown
   * option or a second directory is a usage error (2), before the command runs.
   */
  run(argv: string[], io: CliIo, hooks?: H): Promise<number>;
}

const HELP_OPTION = { type: 'boolean', short: 'h', help: 'Show this help.' } as const;

/**
 * Defines a command once: `node:util`'s `parseArgs` gets its options, and its `--help` lists the same options with
 * their help, so neither can drift from the other.
 */
export function defineCommand<const O extends Record<string, OptionSpec>, H = never>(
  spec: CommandSpec<O, H>,
): Command<H> {
  const all: Record<string, OptionSpec> = { ...spec.options, help: HELP_OPTION };
  const help = formatHelp(spec, all);
  const options = Object.fromEntries(
    Object.entries(all).map(([name, o]) => [
      name,
      { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );
  return {
    name: spec.name,
    synopsis: spec.synopsis ?? `${spec.name} ${spec.usage[0] ?? ''}`.trim(),
    summary: spec.summary,
    help,
    async run(argv, given, hooks) {
      // --json before a `--` asks for a report on stdout, a refused command line's included (`--json=1` too, which
      // is refused itself: the option takes no value).
      const end = argv.indexOf('--');
      const json =
        'json' in spec.options &&
        argv.slice(0, end === -1 ? undefined : end).some((arg) => arg === '--json' || arg.startsWith('--json='));
      const io = json ? withJsonReport(given) : given;
      const parsed = attempt(() => parseArgs({ args: argv, allowPositionals: true, strict: true, options }));
      if (parsed instanceof Error) return usageError(io, spec.name, argumentProblem(parsed, argv, Object.keys(all)));
      if (parsed.values.help) {
        io.stdout.write(help);
        return EXIT.ok;
      }
      const { positionals } = parsed;
      // An empty value is a shell variable that was not set (`svc pack "$DIST"`): taken as ".", the command would
      // work on another folder or file than the one meant. One of spaces alone names nothing either.
      const blank = (v: unknown) => typeof v === 'string' && v.trim() === '';
      const empty = Object.entries(parsed.values).find(([, v]) => blank(v) || (Array.isArray(v) && v.some(blank)));
      if (empty)
        return usageError(io, spec.name, `--${empty[0]} is empty (a variable that is not set?): give it a value`);
      // Every --out names a file; `-` would be a file named "-" (a private key among them), not standard output.
      if (parsed.values.out === '-')
        return usageError(io, spec.name, '--out - would write a file named "-"; this command writes a file: name it');
      if (positionals.some(blank))
        return usageError(
          io,
          spec.name,
          'an argument is empty (a variable that is not set?): name the folder or file, or . for this folder',
        );
      if (spec.oneDirectory && positionals.length > 1)
        return usageError(io, spec.name, `one folder at most; got ${positionals.join(', ')}`);
      const dir = resolve(io.cwd, positionals[0] ?? '.');
      return spec.run({ values: parsed.values as OptionValues<O>, positionals, dir }, io, hooks);
    },
  };
}

/**
 * A refused command line in the CLI's words where `parseArgs`' own would mislead: a single-dash word (`-app`) is named
 * whole, not as its first letter, a mistyped option (`--prot`) gets the one it is near among the command's `names`,
 * and a value that starts with a dash (`--port -1`) is told how to be written; other refusals as `parseArgs` words
 * them.
 */
function argumentProblem(error: Error & { code?: string }, argv: readonly string[], names: string[]): string {
  const option = /^Unknown option '([^']*)'/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    // `-app` is read as the short options -a, -p, -p: the word typed is named, not its first letter.
    const word = /^-[^-]$/.test(option)
      ? argv.find((arg) => arg.startsWith(option) && arg.length > 2 && !arg.startsWith('--'))
      : undefined;
    if (word) return `unknown option ${word}: a long option starts with two dashes (-${word})`;
    // An option's name is no value: `--tto` is as surely `--to` as `--prot` is `--port`.
    const near = option.startsWith('--') ? closestName(option.slice(2), names, 2) : undefined;
    if (near) return `unknown option ${option}; did you mean --${near}?`;
    return `unknown option ${option} (an argument that starts with a dash goes after --: -- ${option})`;
  }
  const ambiguous = /^Option '(--[\w-]+)[^']*' argument is ambiguous/.exec(error.message)?.[1];
  if (ambiguous) {
    const value = argv[argv.indexOf(ambiguous) + 1] ?? '-…';
    return `${ambiguous} ${value}: a value that starts with a dash is written ${ambiguous}=${value}`;
  }
  // `--json=1`, `--force=true`: a switch is on by being there.
  const switched = /^Option '(--[\w-]+)' does not take an argument/.exec(error.message)?.[1];
  if (switched) return `${switched} takes no value: write ${switched} alone`;
  return error.message;
}

function formatHelp(
  spec: CommandSpec<Record<string, OptionSpec>, unknown>,
  options: Record<string, OptionSpec>,
): string {
  const [first = '', ...others] = spec.usage;
  // A command without arguments (keygen) has no first usage text, and its line has no double space.
  const usage = [
    `Usage: svc ${[spec.name, first, '[options]'].filter(Boolean).join(' ')}`,
    ...others.map((u) => `       svc ${spec.name} ${u}`),
  ];
  const listed = Object.entries(options).filter(([, o]) => o.help !== undefined);
  const names = listed.map(([name, o]) =>
    [o.short ? `-${o.short}, ` : '', `--${name}`, o.value ? ` <${o.value}>` : ''].join(''),
  );
  const width = Math.max(...names.map((n) => n.length)) + 3;
  const lines = listed.flatMap(([, o], i) =>
    (o.help ?? '').split('\n').map((text, j) => `  ${(j === 0 ? names[i]! : '').padEnd(width)}${text}`),
  );
  return `${usage.join('\n')}\n\n${spec.description}\n\nOptions:\n${lines.join('\n')}\n\n${spec.footer}`;
}

/** The main help (`svc --help`), from the commands' definitions. */
export function formatMainHelp(commands: readonly Command<never>[]): string {
  const width = Math.max(...commands.map((c) => c.synopsis.length), '-h, --help'.length) + 3;
  const list = commands.map((c) => `  ${c.synopsis.padEnd(width)}${c.summary}`);
  return `Usage: svc <command> [options]

Commands:
${list.join('\n')}

Options:
  ${'-h, --help'.padEnd(width)}Show help; \`svc <command> --help\` shows a command's options.
  ${'--version'.padEnd(width)}Print svc-sdk's version.

Exit codes: 0 valid (warnings allowed), 1 invalid, 2 usage error, unreadable input or output that cannot be written.
`;
}
