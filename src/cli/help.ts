/** `svc --help`. */
export const MAIN_HELP = `Usage: svc <command> [options]

Commands:
  validate [manifest.json ...]   Check manifests against every manifest rule.
  check [dir]                    Check a mini app's code against its manifest (action handlers, auth mode).
  types [dir]                    Write svc-actions.d.ts: typed action inputs from the manifest's input_schemas.
  init [dir]                     Write a valid starter manifest.json.
  dev [dir]                      Run the app in a simulated messenger with the whole platform on loopback.
  mcp [dir] | mcp export [dir]   The app's actions as MCP tools over stdio (needs svc dev running), or as JSON.

Options:
  -h, --help                     Show help; \`svc <command> --help\` shows a command's options.

Exit codes: 0 valid (warnings allowed), 1 invalid, 2 usage error or unreadable input.
`;

/** `svc validate --help`. */
export const VALIDATE_HELP = `Usage: svc validate [manifest.json | folder ...] [options]

Validates each manifest (default ./manifest.json) and prints one line per issue:
  <file>: <error|warning>: <JSON path> <what to fix>
Warns about the starter's placeholders (id, description, vendor). Given a folder (a package, such as your
build's output), also checks that its manifest.json's entry document and icons are there.

Options:
  --previous-version <x.y.z>   The published version; the new version must be higher.
  --json                       Print a JSON report instead of lines.
  --agent                      Also warn about what makes an action a poor MCP tool: names too long once
                               clients prefix them, $ref/$defs/$schema, output schemas without an object root.
  -h, --help                   Show this help.

Exit codes: 0 every file valid (warnings do not fail), 1 a file is invalid,
            2 usage error, unreadable file or broken JSON.

Example:
  $ svc validate --previous-version 1.4.0
  manifest.json: error: $.version 1.4.0 equals the published version 1.4.0; the store only accepts a higher one, such as 1.4.1
  manifest.json: invalid (1 error)
`;

/** `svc check --help`. */
export const CHECK_HELP = `Usage: svc check [dir] [options]

Runs the build-time checks of the interface on the mini app in <dir> (default .):
  - manifest.json is valid;
  - every declared action has a svc.actions.handle('<name>', ...) in the code, and every handler is declared;
  - a manifest with auth "none" never calls svc.auth.getToken();
  - svc.permissions.request('<scope>') only asks for scopes the manifest declares.
Parses .js .mjs .cjs .ts .mts .cts .tsx .jsx files with the parser that ships with svc-sdk (no TypeScript
needed, any version works), skipping node_modules, build output (dist, build, out, .next, coverage), hidden
directories, config files (*.config.*), declaration files and tests. With no --include, the include and exclude
lists of <dir>/tsconfig.json are followed when it has them. Prints one line per finding:
  <file>:<line>:<col>  <error|warning>: <what to fix>

Options:
  --include <glob>   Only scan files matching the glob (relative to <dir>); repeatable.
  --exclude <glob>   Skip files matching the glob; repeatable.
  --json             Print a JSON report instead of lines.
  -h, --help         Show this help.

Exit codes: 0 no errors (warnings allowed), 1 errors, 2 usage error or missing manifest.
`;

/** `svc init --help`. */
export const INIT_HELP = `Usage: svc init [dir] [options]

Writes <dir>/manifest.json (default ./manifest.json): a valid starter manifest. It also maps manifest.json to the
JSON Schema shipped in svc-sdk in <dir>/.vscode/settings.json (merged into an existing file), so editors validate
and complete it; the manifest itself takes no "$schema" key (the interface allows no extra properties).

With --template vite, writes a whole project that runs instead: a Vite + TypeScript page, public/manifest.json
and its icons, a backend on svc-sdk/server, a Vitest test with svc-sdk/mock, an end-to-end test with svc-sdk/dev,
and the scripts dev (Vite, the backend and svc dev, one URL), test and build.

Options:
  --template vite The whole project, not just the manifest (into a new or empty folder).
  --name <name>   The mini app name (1 to 60 characters).
  --id <hex>      The 16-hex-character id from the developer console.
  -f, --force     Overwrite an existing manifest.json (or write the template into a folder that is not empty).
  -h, --help      Show this help.

Exit codes: 0 written, 1 manifest.json exists (use --force), 2 usage error.
`;

/** `svc types --help`. */
export const TYPES_HELP = `Usage: svc types [dir] [options]

Writes <dir>/svc-actions.d.ts from <dir>/manifest.json (default .): the input type of each declared action, from
its input_schema. With it in your tsconfig.json, svc.actions.handle() accepts only the declared action names and
types each handler's input. Run it again after changing the actions.

Options:
  --out <file>   Where to write the declarations (default <dir>/svc-actions.d.ts).
  -h, --help     Show this help.

Exit codes: 0 written, 1 invalid manifest, 2 usage error or missing manifest.
`;

/** `svc dev --help`. */
export const DEV_HELP = `Usage: svc dev [dir] [options]

Validates <dir>/manifest.json (default .), starts the local platform on 127.0.0.1 (a simulated messenger, the
identity provider, the server API at /v1, signed webhooks) and serves the app's package on its own origin with
its CSP; prints the messenger's URL and runs until Ctrl-C.

Options:
  --port <n>             Port of the messenger and platform (default 4310, or the next free one, said so;
                         0 for any free one).
  --package-port <n>     Port of the app's package origin (default any free one).
  --webhooks <url>       Your backend's webhook URL, e.g. http://localhost:3000/svc/webhooks.
  --allow <origin>       A loopback backend the app may fetch besides the manifest's network (repeatable).
  --app-url <url>        Load the app from your own dev server (e.g. Vite's http://localhost:5173) instead.
  --state <file>         Keep rooms, grants and installations in this file across restarts.
  --reset                Start from a fresh state (deletes the --state file first).
  --retry-scale <x>      Webhook retry delays times x (0.01: a minute of backoff takes under a second).
  --backend-env <file>   Write the backend's settings (the signing secret too) to this file, mode 600;
                         rewritten on a rotation with SVC_SIGNING_SECRET_PREVIOUS.
  -q, --quiet            Do not print one line per event (launches, webhooks, server API calls, blocked requests).
  --open                 Open the URL in the system browser.
  --no-mcp               Do not serve the actions as MCP tools at <origin>/mcp.
  --agent-id <id>        The agent id of every MCP call (default the MCP client's name).
  --elicit <who>         Who answers the app's elicit during an MCP call: sheet (the person, default) or
                         agent (MCP form elicitation when the client supports it and the schema is flat).
  --mcp-origin <origin>  An exact origin a browser-based MCP client may call /mcp from (repeatable).
  -h, --help             Show this help.

Exit codes: 0 stopped, 1 invalid manifest, 2 usage error.
`;

/** `svc mcp --help`. */
export const MCP_HELP = `Usage: svc mcp [dir]
       svc mcp export [dir]

svc mcp [dir] serves the MCP tools of the svc dev running for <dir> (default .) over stdio, for MCP clients
that cannot reach a local HTTP server (Claude Desktop). Start npx svc-sdk dev <dir> first and keep its messenger
page open: the calls run there, and the person confirms them there. The agent id is the client's name.

svc mcp export [dir] prints the tools/list result of <dir>/manifest.json as JSON (no svc dev needed).

Claude Desktop (claude_desktop_config.json):
  { "mcpServers": { "svc": { "command": "npx", "args": ["svc-sdk", "mcp", "/path/to/app"] } } }

Exit codes: 0 stopped, 1 no svc dev runs for the folder or the manifest is invalid, 2 usage error.
`;
