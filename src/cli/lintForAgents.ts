import { formatJsonPath, type Manifest, type ManifestIssue } from '../manifest';

/** The longest prefix common MCP clients put before a tool's name (Claude Code: `mcp__<server>__`, server `svc`). */
const CLIENT_PREFIX = 'mcp__svc__';
/** The tool name length many MCP clients and model providers cap the prefixed name at. */
const MAX_TOOL_NAME = 64;
// Keywords some model providers refuse in tool schemas (Gemini among them).
const REFUSED = new Set(['$ref', '$defs', 'definitions', '$schema', '$dynamicRef', '$anchor']);
/** The most tools many agent clients and model APIs pass to a model at once (OpenAI's function calling, for one). */
const MAX_TOOLS = 128;

type Path = Array<string | number>;

/** Every refused keyword under `schema`, with its path. */
function refusedKeywords(schema: unknown, path: Path, found: Path[] = []): Path[] {
  if (Array.isArray(schema)) for (const [i, item] of schema.entries()) refusedKeywords(item, [...path, i], found);
  else if (typeof schema === 'object' && schema !== null)
    for (const [key, value] of Object.entries(schema)) {
      if (REFUSED.has(key)) found.push([...path, key]);
      refusedKeywords(value, [...path, key], found);
    }
  return found;
}

/**
 * `svc validate --agent`: what makes an action a poor MCP tool, as warnings (the manifest stays valid): a name too
 * long once a client prefixes it, schema keywords some model providers refuse, an output schema without an object
 * root (it is served wrapped as `{ result }`), more actions than many clients pass a model (128). A destructive action with `confirm: "never"` is already a warning of
 * every validation.
 * @public
 */
export function lintForAgents(manifest: Pick<Manifest, 'actions'>): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const warn = (path: Path, code: string, text: string) => {
    const at = formatJsonPath(path);
    issues.push({ path: at, message: `${at} ${text}`, severity: 'warning', code });
  };
  (manifest.actions ?? []).forEach((action, i) => {
    const at: Path = ['actions', i];
    const prefixed = CLIENT_PREFIX.length + action.name.length;
    if (prefixed > MAX_TOOL_NAME)
      warn(
        [...at, 'name'],
        'agent_tool_name_length',
        `is ${action.name.length} characters; clients prefix tool names (${CLIENT_PREFIX}${action.name} is ${prefixed}) ` +
          `and many refuse names over ${MAX_TOOL_NAME}: shorten it to at most ${MAX_TOOL_NAME - CLIENT_PREFIX.length}.`,
      );
    for (const field of ['input_schema', 'output_schema'] as const)
      for (const path of refusedKeywords(action[field], [...at, field]))
        warn(
          path,
          'agent_schema_keyword',
          `is refused by some model providers in tool schemas (Gemini among them): inline the definition instead of ${String(path.at(-1))}.`,
        );
    const output = action.output_schema;
    if (output && output.type !== 'object')
      warn(
        [...at, 'output_schema'],
        'agent_output_root',
        'has no object root ("type": "object"); MCP requires one, so the tool serves it wrapped as { "result": ... } ' +
          'and returns results the same way: give it an object root to avoid the wrapper.',
      );
  });
  const count = manifest.actions?.length ?? 0;
  if (count > MAX_TOOLS)
    warn(
      ['actions'],
      'agent_tool_count',
      `declares ${count} actions; many agent clients and model APIs pass at most ${MAX_TOOLS} tools to a model (OpenAI's function calling, for one), so an agent may not see them all: merge actions that differ by a parameter, or keep the agent-facing ones to ${MAX_TOOLS}.`,
    );
  return issues;
}
