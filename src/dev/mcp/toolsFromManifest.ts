import type { Manifest } from '../../manifest';

/** One MCP tool, as `tools/list` answers it. @internal */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  _meta: Record<string, unknown>;
}

type Action = NonNullable<Manifest['actions']>[number];

/** The reverse-domain key of svc's own fields in a tool's `_meta`. */
const SVC_TOOL_META = 'dev.svc/action';

/** The property a non-object `output_schema` is wrapped in (MCP requires an object root for `outputSchema`). @internal */
export const WRAPPED_RESULT = 'result';

/** Whether an output schema has an object root (what MCP's `outputSchema` must have). @internal */
export const isObjectRoot = (schema: Record<string, unknown> | undefined) => schema?.type === 'object';

/**
 * The tool of one manifest action: name, title, description, `inputSchema` as declared, `outputSchema` with an object
 * root (a non-object `output_schema` is wrapped as `{ result: <schema> }`, and so is the result), all four annotation
 * hints (MCP's defaults, destructive and open world, differ from a manifest's), and the confirmation floor and route
 * under `_meta["dev.svc/action"]` (the host enforces the floor; hints are untrusted by MCP clients).
 */
function toolFromAction(action: Action): McpTool {
  const output = action.output_schema;
  const a = action.annotations;
  // Models read the description, not `_meta` or the hints: a call that waits for a person says so, so that the model
  // can tell the person and does not take the wait for a hang.
  const confirmed = action.confirm === 'always' || (action.confirm === 'if_destructive' && a.destructive);
  const tool: McpTool = {
    name: action.name,
    title: action.title,
    description: confirmed
      ? `${action.description} (The person confirms each call in the messenger before it runs.)`
      : action.description,
    inputSchema: action.input_schema,
    annotations: {
      title: action.title,
      readOnlyHint: a.read_only,
      destructiveHint: a.destructive,
      idempotentHint: a.idempotent,
      openWorldHint: a.open_world,
    },
    _meta: {
      [SVC_TOOL_META]: { confirm: action.confirm, ...(action.route ? { route: action.route } : {}) },
    },
  };
  if (output)
    tool.outputSchema = isObjectRoot(output)
      ? output
      : { type: 'object', properties: { [WRAPPED_RESULT]: output }, required: [WRAPPED_RESULT] };
  return tool;
}

/**
 * The `tools/list` result of a manifest: one tool per action, in the manifest's order.
 * @example
 * ```ts
 * const { tools } = toolsFromManifest(manifest);
 * ```
 * @internal
 */
export function toolsFromManifest(manifest: Pick<Manifest, 'actions'>): { tools: McpTool[] } {
  return { tools: (manifest.actions ?? []).map(toolFromAction) };
}
