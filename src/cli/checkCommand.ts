import { authModeRefusal, manifestFacts } from '../manifest/manifestFacts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { globFromProject, locateApp } from './locateApp';
import { usageError } from './usageError';
import { type ManifestIssueSeverity, validateManifest } from '../manifest';
import { closestName } from '../manifest/closestName';
import { PERMISSION_SCOPES, type PermissionScope, SCOPE_TO_MANIFEST } from '../protocol/scopes';
import { type CliIo, EXIT, plural, writeLine } from './CliIo';
import type { BridgeCall } from './findBridgeCalls';
import type { SourceFilter } from './listSourceFiles';
import { exitOfUnread, readJsonFile } from './readJsonFile';
import { defineCommand } from './defineCommand';
import { printable } from '../manifest/printable';
import { shownPath } from './shownPath';

/**
 * One finding of `svc check`, at a place in the manifest or in the code.
 * @public
 */
export interface CheckFinding {
  file: string;
  line: number;
  column: number;
  severity: ManifestIssueSeverity;
  code: string;
  message: string;
}

/**
 * `svc check [dir | manifest.json] [--include <glob>] [--exclude <glob>] [--json]`: validates the app's manifest
 * (`<dir>/manifest.json` or `<dir>/public/manifest.json`), then parses the code of its project and checks that every
 * declared action has a handler, every handler is declared, auth `none` never calls `getToken()`, and `svc.permissions.request()` only asks for declared scopes.
 * @public
 */
export const CHECK = defineCommand({
  name: 'check',
  usage: ['[dir | manifest.json]'],
  summary: `Check a mini app's code against its manifest (action handlers, auth mode).`,
  description: `Runs the platform's build-time checks on the mini app in <dir> (default .):
  - its manifest.json is valid (<dir>/manifest.json, else <dir>/public/manifest.json as \`svc init --template
    vite\` lays it out; or name the file);
  - every declared action has a svc.actions.handle('<name>', ...) in the code, and every handler is declared;
  - a manifest with auth "none" never calls svc.auth.getToken();
  - svc.permissions.request('<scope>') only asks for scopes the manifest declares.
Parses .js .mjs .cjs .ts .mts .cts .tsx .jsx files, and the <script> elements of .vue .svelte .html files, with
the parser that ships with svc-sdk (no TypeScript needed, any version works), skipping node_modules, build
output (dist, build, out, .next, coverage, test reports), hidden
directories, config files (*.config.*), declaration files and tests. With no --include, the include and exclude
lists of the project's tsconfig.json are followed when it has them. The project is the manifest's folder, or the
folder above when the manifest sits in public/ or static/ beside a package.json (its code is in src/, not public/).
Prints one line per finding:
  <file>:<line>:<col>  <error|warning>: <what to fix>`,
  options: {
    include: {
      type: 'string',
      multiple: true,
      value: 'glob',
      help: `Only scan files matching the glob, relative to the project folder (one starting
with ./ or ../ is read from <dir>); repeatable.`,
    },
    exclude: { type: 'string', multiple: true, value: 'glob', help: `Skip files matching the glob; repeatable.` },
    json: { type: 'boolean', help: `Print a JSON report instead of lines.` },
  },
  footer: `Exit codes: 0 no errors (warnings allowed), 1 errors (a manifest that is not JSON too),
            2 usage error, or a manifest missing or unreadable.
`,
  oneDirectory: true,
  async run({ values, dir }, io) {
    const show = (path: string): string => shownPath(io.cwd, path);
    // A manifest that cannot be checked: said on stderr, and with --json as a report too, so a CI step that reads
    // stdout gets JSON whatever happened.
    const unchecked = (error: { code: 'unreadable' | 'bad_json'; message: string }) => {
      writeLine(io.stderr, `svc check: ${error.message}`);
      if (values.json)
        writeLine(io.stdout, JSON.stringify({ ok: false, files: 0, actions: 0, findings: [], error }, null, 2));
      return exitOfUnread(error);
    };
    const app = await locateApp(dir, show);
    if (!app.ok) return unchecked({ code: 'unreadable', message: app.message });
    const { manifestFile, projectDir } = app;
    const read = await readJsonFile(manifestFile, show(manifestFile));
    if (!read.ok) return unchecked({ code: read.code, message: read.message });
    const outside = [...(values.include ?? []), ...(values.exclude ?? [])].find(
      (glob) => globFromProject(glob, dir, projectDir) === undefined,
    );
    if (outside !== undefined)
      return usageError(
        io,
        'check',
        `the glob "${outside}" points outside the project folder ${show(projectDir)}; write it relative to that folder, such as "src/**"`,
      );
    const fromProject = (globs: string[] | undefined) => globs?.map((g) => globFromProject(g, dir, projectDir)!);
    // The parser (@babel/parser) and the globs (picomatch) are loaded when check runs, not when any other command of
    // the CLI starts.
    const [{ listSourceFiles }, { findBridgeCalls }, { locateJsonPath }] = await Promise.all([
      import('./listSourceFiles'),
      import('./findBridgeCalls'),
      import('./locateJsonPath'),
    ]);
    let sources: string[];
    try {
      sources = await listSourceFiles(
        projectDir,
        values.include
          ? { include: fromProject(values.include)!, exclude: fromProject(values.exclude) ?? [] }
          : await tsconfigFilter(projectDir, fromProject(values.exclude)),
      );
    } catch (cause) {
      writeLine(io.stderr, `svc check: cannot list the files of ${show(projectDir)} (${(cause as Error).message})`);
      return EXIT.usage;
    }

    const findings: CheckFinding[] = [];
    const inManifest = (path: string, severity: ManifestIssueSeverity, code: string, message: string): void => {
      findings.push({ file: show(manifestFile), ...locateJsonPath(read.text, path), severity, code, message });
    };
    const result = validateManifest(read.value);
    for (const issue of result.ok ? result.warnings : result.issues)
      inManifest(issue.path, issue.severity, issue.code, issue.message);

    // The facts the host's rules read too, from the raw JSON (which may be invalid).
    const { manifestScopes: declaredScopes, actions: declared, authMode: authType } = manifestFacts(read.value);

    const handlers = new Map<string, string>();
    // Where a handler with a computed name is registered, if anywhere (the first).
    let computed: string | undefined;
    for (const source of sources) {
      const at = (call: BridgeCall, severity: ManifestIssueSeverity, code: string, message: string): void => {
        findings.push({ file: show(source), line: call.line, column: call.column, severity, code, message });
      };
      let calls: BridgeCall[];
      try {
        calls = findBridgeCalls(source, await readFile(source, 'utf8'));
      } catch (cause) {
        findings.push({
          file: show(source),
          line: 1,
          column: 1,
          severity: 'warning',
          code: 'parse_error',
          // A parser that recurses per level runs out of stack on code nested thousands deep: no syntax error.
          message:
            cause instanceof RangeError
              ? 'cannot parse this file: it nests too deep for the parser (thousands of levels), so it was not checked'
              : `cannot parse this file (${(cause as Error).message}), so it was not checked; fix the syntax error`,
        });
        continue;
      }
      for (const call of calls) {
        const where = `${show(source)}:${call.line}:${call.column}`;
        if (call.kind === 'handle' && call.name === undefined) {
          computed ??= where;
          at(
            call,
            'warning',
            'handler_name_not_literal',
            `svc.actions.handle() gets a computed action name, so svc check cannot match it with the manifest; write the name as a string literal, such as svc.actions.handle('create_order', ...)`,
          );
        } else if (call.kind === 'handle' && call.name !== undefined) {
          const first = handlers.get(call.name);
          if (first !== undefined)
            at(
              call,
              'warning',
              'duplicate_handler',
              `svc.actions.handle('${call.name}') registers the action again (first at ${first}); keep one handler per action`,
            );
          else handlers.set(call.name, where);
          if (!declared.has(call.name)) {
            const names = [...declared.keys()];
            const near =
              closestName(call.name, names) ??
              names.find((n) => n.replace(/_/g, '') === call.name?.toLowerCase().replace(/[-_]/g, ''));
            const hint = near
              ? ` (did you mean '${near}'?)`
              : names.length > 0
                ? ` (declared: ${names.join(', ')})`
                : '';
            at(
              call,
              'error',
              'handler_not_declared',
              `svc.actions.handle('${call.name}') registers an action that manifest.json does not declare${hint}; add it to "actions" in the manifest, or remove the handler`,
            );
          }
        } else if (call.kind === 'getToken' && authModeRefusal(authType, 'auth.getToken')) {
          at(
            call,
            'error',
            'get_token_auth_none',
            `svc.auth.getToken() is called, but manifest.json declares "auth": {"type": "none"}, which has no token; remove the call, or declare "svc-exchange" or "external-oauth" auth`,
          );
        } else if (call.kind === 'request' && call.name !== undefined) {
          const problem = requestProblem(call.name, declaredScopes);
          if (problem) at(call, 'error', problem.code, problem.message);
        } else if (call.kind === 'signIn' && authModeRefusal(authType, 'auth.signIn')) {
          at(
            call,
            'warning',
            'sign_in_wrong_auth',
            `svc.auth.signIn() only works with "external-oauth" auth, but manifest.json declares "${authType}"; remove the call or change the auth type`,
          );
        }
      }
    }
    for (const [name, index] of declared) {
      if (handlers.has(name)) continue;
      // A handler registered through a function of the app's (a React hook, a Vue composable) reaches handle()
      // with a computed name: the action may well be registered, so the app's build is not failed for it.
      if (computed)
        inManifest(
          `$.actions[${index}].name`,
          'warning',
          'action_without_handler',
          `action '${name}' is declared and no svc.actions.handle('${name}', ...) is written as such; the handler with a computed name at ${computed} may register it: make sure it does (an invocation of an action without a handler fails)`,
        );
      else
        inManifest(
          `$.actions[${index}].name`,
          'error',
          'action_without_handler',
          `action '${name}' is declared but no code registers it; add svc.actions.handle('${name}', async (input, context) => { ... }) to the mini app`,
        );
    }
    return report(io, findings, sources.length, declared.size, values.json === true);
  },
});

/** What is wrong with `svc.permissions.request(name)` given the manifest's declared scopes, if anything. */
function requestProblem(name: string, declared: ReadonlySet<string>): { code: string; message: string } | undefined {
  const call = `svc.permissions.request('${name}')`;
  if ((PERMISSION_SCOPES as readonly string[]).includes(name)) {
    const manifestScope = SCOPE_TO_MANIFEST[name as PermissionScope];
    if (manifestScope === null)
      return {
        code: 'scope_not_declarable',
        message: `${call} asks for a scope no manifest can declare, so it always rejects ERR_SCOPE_NOT_DECLARED; remove the call`,
      };
    if (declared.has(manifestScope)) return undefined;
    return {
      code: 'scope_not_declared',
      message: `${call} asks for a scope manifest.json does not declare, so it rejects ERR_SCOPE_NOT_DECLARED without prompting; add {"scope": "${manifestScope}", "purpose": "..."} to "permissions"`,
    };
  }
  const short = Object.entries(SCOPE_TO_MANIFEST).find(([, m]) => m === name)?.[0];
  if (short)
    return {
      code: 'scope_name_form',
      message: `${call} uses the manifest's name of the scope; the bridge takes the short name: did you mean '${short}'?`,
    };
  const near = closestName(name, PERMISSION_SCOPES) ?? closestName(name.replace(/^svc\./, ''), PERMISSION_SCOPES);
  return {
    code: 'scope_unknown',
    message: `${call} asks for a scope that does not exist${near ? ` (did you mean '${near}'?)` : ''}; the scopes are ${PERMISSION_SCOPES.join(', ')}`,
  };
}

/** The include/exclude lists of `<dir>/tsconfig.json`, when it has them (JSON with comments allowed). */
async function tsconfigFilter(dir: string, exclude: string[] | undefined): Promise<SourceFilter> {
  const filter: SourceFilter = { exclude: exclude ?? [] };
  let text: string;
  try {
    text = await readFile(join(dir, 'tsconfig.json'), 'utf8');
  } catch {
    return filter;
  }
  try {
    const config = JSON.parse(
      text.replace(/\/\*[\s\S]*?\*\/|(^|[^:"])\/\/.*$/gm, '$1').replace(/,(\s*[}\]])/g, '$1'),
    ) as { include?: unknown; exclude?: unknown };
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    if (strings(config.include).length) filter.include = strings(config.include);
    filter.exclude = [...(filter.exclude ?? []), ...strings(config.exclude)];
  } catch {
    // An unreadable tsconfig.json is the compiler's business; scan everything rather than fail the check.
  }
  return filter;
}

function report(io: CliIo, findings: CheckFinding[], files: number, actions: number, json: boolean): number {
  findings.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1));
  const errors = findings.filter((f) => f.severity === 'error').length;
  const code = errors > 0 ? EXIT.invalid : EXIT.ok;
  if (json) {
    writeLine(io.stdout, JSON.stringify({ ok: code === EXIT.ok, files, actions, findings }, null, 2));
    return code;
  }
  for (const f of findings)
    writeLine(io.stdout, `${f.file}:${f.line}:${f.column}  ${f.severity}: ${printable(f.message)}`);
  const warnings = findings.length - errors;
  const scanned = `${plural(files, 'source file')}, ${plural(actions, 'declared action')}`;
  writeLine(
    io.stdout,
    errors + warnings === 0
      ? `svc check: ok (${scanned})`
      : `svc check: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} (${scanned})`,
  );
  return code;
}
