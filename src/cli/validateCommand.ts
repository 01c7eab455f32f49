import { stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { checkPlaceholders, isVersion, type ManifestIssue, validateManifest } from '../manifest';
import { checkPackageFiles, checkPackable } from './checkPackageFiles';
import { EXIT, plural, writeLine } from './CliIo';
import { lintForAgents } from './lintForAgents';
import { locateApp } from './locateApp';
import { readJsonFile } from './readJsonFile';
import { defineCommand } from './defineCommand';
import { usageError } from './usageError';
import { printable } from '../manifest/printable';
import { shownPath } from './shownPath';

/** An issue and where its JSON path starts in the file (1-based), so an editor or a CI annotation can point at it. */
type LocatedIssue = ManifestIssue & { line: number; column: number };

interface FileReport {
  file: string;
  ok: boolean;
  issues: LocatedIssue[];
  error?: { code: string; message: string; line?: number; column?: number };
}

/**
 * `svc validate [manifest.json ...] [--json] [--previous-version x.y.z] [--agent]` (`--agent` adds the warnings of
 * {@link lintForAgents}): exit 0 when every file is valid (warnings
 * allowed), 1 when one is invalid, 2 for a usage error or a file that cannot be read or parsed.
 * @public
 */
export const VALIDATE = defineCommand({
  name: 'validate',
  usage: ['[manifest.json ...]'],
  summary: `Check manifests against every manifest rule.`,
  description: `Validates each manifest (default ./manifest.json, else ./public/manifest.json) and prints one line
per issue, where its JSON path starts in the file:
  <file>:<line>:<column>  <error|warning>: <JSON path> <what to fix>`,
  options: {
    'previous-version': {
      type: 'string',
      value: 'x.y.z',
      help: `The published version; the new version must be higher.`,
    },
    json: { type: 'boolean', help: `Print a JSON report instead of lines.` },
    agent: {
      type: 'boolean',
      help: `Also warn about what makes an action a poor MCP tool: names too long once
clients prefix them, $ref/$defs/$schema, output schemas without an object root.`,
    },
  },
  footer: `Exit codes: 0 every file valid (warnings do not fail), 1 a file is invalid (not JSON too),
            2 usage error, or a file missing or unreadable.

Example:
  $ svc validate --previous-version 1.4.0
  manifest.json:5:3  error: $.version 1.4.0 equals the published version 1.4.0; the store only accepts a higher one, such as 1.4.1
  manifest.json: invalid (1 error)
`,
  async run({ values, positionals }, io) {
    const previous = values['previous-version'];
    if (previous !== undefined && !isVersion(previous)) {
      return usageError(
        io,
        'validate',
        `--previous-version "${previous}" is not a version; write three dot-separated integers such as 1.4.0`,
      );
    }
    // With no file named, the manifest where \`svc init\` puts it: ./manifest.json, or ./public/manifest.json.
    const found = positionals.length > 0 ? undefined : await locateApp(io.cwd, (p) => relative(io.cwd, p));
    const files =
      positionals.length > 0 ? positionals : [found?.ok ? relative(io.cwd, found.manifestFile) : 'manifest.json'];
    const reports: FileReport[] = [];
    for (const given of files) {
      // A folder is a package: its manifest.json, and the files the manifest names must be there too.
      const folder = await stat(resolve(io.cwd, given)).then(
        (s) => s.isDirectory(),
        () => false,
      );
      const file = folder ? join(given, 'manifest.json') : given;
      const label = shownPath(io.cwd, resolve(io.cwd, file));
      const read = await readJsonFile(resolve(io.cwd, file), label);
      if (!read.ok) {
        const { ok: _ok, ...error } = read;
        reports.push({ file: label, ok: false, issues: [], error });
        continue;
      }
      const result = validateManifest(read.value, previous === undefined ? {} : { previousVersion: previous });
      const missing = folder
        ? [
            ...(await checkPackageFiles(resolve(io.cwd, given), read.value as object)),
            ...(await checkPackable(resolve(io.cwd, given))),
          ]
        : [];
      // The agent lint reads a valid manifest only: an invalid one gets its errors first.
      const agent = values.agent && result.ok ? lintForAgents(result.manifest) : [];
      const issues = [
        ...(result.ok ? [...result.warnings, ...agent] : result.issues),
        ...missing,
        ...checkPlaceholders(read.value),
      ];
      reports.push({
        file: label,
        ok: result.ok && missing.every((issue) => issue.severity !== 'error'),
        issues: await located(read.text, issues),
      });
    }

    // A file that is not there or cannot be read is the caller's to fix (2); one read and found not JSON is invalid.
    const broken = reports.some((report) => report.error?.code === 'unreadable');
    const code = broken ? EXIT.usage : reports.every((report) => report.ok) ? EXIT.ok : EXIT.invalid;
    if (values.json) {
      writeLine(io.stdout, JSON.stringify({ ok: code === EXIT.ok, files: reports }, null, 2));
      return code;
    }
    for (const report of reports) {
      if (report.error) {
        writeLine(io.stderr, `svc validate: ${report.error.message}`);
        continue;
      }
      for (const issue of report.issues)
        writeLine(
          io.stdout,
          `${report.file}:${issue.line}:${issue.column}  ${issue.severity}: ${printable(issue.message)}`,
        );
      const errors = report.issues.filter((issue) => issue.severity === 'error').length;
      const warnings = report.issues.length - errors;
      const counts = [errors > 0 ? plural(errors, 'error') : '', warnings > 0 ? plural(warnings, 'warning') : '']
        .filter(Boolean)
        .join(', ');
      writeLine(io.stdout, `${report.file}: ${report.ok ? 'valid' : 'invalid'}${counts ? ` (${counts})` : ''}`);
    }
    return code;
  },
});

/**
 * Each issue with the line and column its JSON path starts at (the closest parent that is there for a missing field;
 * 1:1 for the file as a whole). The parser is loaded only for a file with issues: a valid one costs nothing more.
 */
async function located(text: string, issues: ManifestIssue[]): Promise<LocatedIssue[]> {
  if (issues.length === 0) return [];
  const { locateJsonPath } = await import('./locateJsonPath');
  return issues.map((issue) => ({ ...issue, ...locateJsonPath(text, issue.path) }));
}
