import {
  type CallToolResult,
  type McpServer,
  SdkError,
  SdkErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { createInputValidator, formatJsonPath, type InputValidator, type Manifest } from '../../manifest';
import { tooDeepPath } from '../../manifest/tooDeepPath';
import { redactText } from '../../protocol/redactText';
import type { InvocationRelay, RelayCall } from './createInvocationRelay';
import { elicitForm } from './elicitForm';
import { findMalformedValue } from '../../manifest/findMalformedValue';
import { safeToRepeat } from '../safeToRepeat';
import { isObjectRoot, WRAPPED_RESULT } from './toolsFromManifest';

type Action = NonNullable<Manifest['actions']>[number];

/** The protocol era a server serves: 2025-era sessions (`legacy`) or 2026-07-28 requests (`modern`). @internal */
export type McpEra = 'legacy' | 'modern';

/** What {@link createToolCall} needs: the relay to the page, and who the agent is and who answers `elicit`. @internal */
export interface ToolCallOptions {
  relay: InvocationRelay;
  /** The agent id of every call; default the MCP client's name. */
  agentId?: string;
  /** Who answers the app's `elicit`: the person in the messenger (default) or the MCP client when it can. */
  elicit?: 'sheet' | 'agent';
  /** How long the MCP client may take to answer an `elicit` before the person's sheet asks instead; 25 s. */
  agentAnswerTimeout?: number;
}

/** One `tools/call`: the tool, its arguments, and the SDK's server and request context it came through. @internal */
export interface ToolCall {
  manifest: Manifest;
  name: string;
  args: unknown;
  ctx: ServerContext;
  server: McpServer;
  era: McpEra;
}

// The reverse-domain key of an error result's `_meta`: `{ code, retriable }`.
const SVC_ERROR_META = 'dev.svc/error';

// Far beyond any real input schema, and far below what the validator's and the relay's recursion can take.
const MAX_ARGUMENT_DEPTH = 64;

// What an agent should do after each error, beside the host's own sentence.
const ADVICE: Record<string, string> = {
  ERR_PERMISSION_DENIED: 'The person refused: do not call it again unless they ask you to.',
  ERR_ACTION_INVALID_INPUT: "Fix the arguments to fit the tool's inputSchema and call again.",
  ERR_ACTION_NOT_DECLARED: 'Call tools/list for the tools the app has now.',
  ERR_CANCELLED: 'Nothing more happens for this call.',
  // The app's own failure (its handler threw, or its output did not fit): the agent cannot see the page, so say where
  // the cause shows and that calling again as it is fails the same way.
  ERR_ACTION_FAILED:
    "The app's handler failed: the messenger page's console shows why. Change the arguments if they caused it, or fix the handler, then call again.",
};

/**
 * An `isError` result: the code first, what to do, `_meta` with the code; never `structuredContent` or a token.
 * @internal
 */
export function errorResult(code: string, message: string, retriable: boolean): CallToolResult {
  const said = redactText(message);
  const advice = ADVICE[code];
  // The app's own sentence may end without a stop ('action create_poll failed: Failed to fetch'): one before the
  // advice keeps the two sentences apart.
  const text = `${code}: ${said}${advice ? `${/[.!?]$/.test(said) ? '' : '.'} ${advice}` : ''}`;
  return { isError: true, content: [{ type: 'text', text }], _meta: { [SVC_ERROR_META]: { code, retriable } } };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The result of an action's output: `structuredContent` as `outputSchema` describes it (a non-object root wrapped
 * as `{ result }`; without an `output_schema`, an object output as it is), and the same JSON as text.
 */
function toolResult(action: Action, output: unknown): CallToolResult {
  const value = output === undefined ? null : output;
  const structured = !action.output_schema
    ? isRecord(value)
      ? value
      : undefined
    : isObjectRoot(action.output_schema)
      ? value
      : { [WRAPPED_RESULT]: value };
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(structured ?? value) }] };
  if (isRecord(structured)) result.structuredContent = structured;
  return result;
}

/**
 * A signal aborted when either is, with its reason: what `AbortSignal.any` does, at a seventh of its cost on Node 20
 * (about 0.1 ms a call, on the path of every tool call).
 */
function eitherSignal(first: AbortSignal, second: AbortSignal | undefined): AbortSignal {
  if (!second || first.aborted) return first;
  if (second.aborted) return second;
  const either = new AbortController();
  const abort = (event: Event) => {
    if (event.target instanceof AbortSignal) either.abort(event.target.reason);
  };
  first.addEventListener('abort', abort, { once: true });
  second.addEventListener('abort', abort, { once: true });
  return either.signal;
}

/**
 * An agent id from an MCP client's name (`claude-code`, `Visual Studio Code` -> `visual-studio-code`, `Agent Café` ->
 * `agent-café`), `mcp-client` for none. Letters of every script are kept (in NFC, so a name typed decomposed reads
 * the same); anything else between them becomes one `-`, so the id holds no space, punctuation or control character.
 * @internal
 */
export const agentIdFrom = (clientName: string | undefined) =>
  Array.from(
    (clientName ?? '')
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-')
      .replace(/^-+|-+$/g, ''),
  )
    // 64 characters, never half of one (a letter outside the BMP is two UTF-16 units).
    .slice(0, 64)
    .join('') || 'mcp-client';

/** The call's progress, sent to the client as `notifications/progress` when it asked for them (a progress token). */
function progressOf(ctx: ServerContext): RelayCall['progress'] {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  let count = 0;
  return (message) => {
    if (progressToken === undefined) return;
    count += 1;
    ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken, progress: count, message } })
      .catch(() => {});
  };
}

/**
 * How long an MCP client may take to answer the app's `elicit` before the person's sheet asks instead: half the
 * person's own 50 s, so that a client that never answers leaves the person time before most clients give up on the
 * call (60 s; the SDK's own default would have waited those 60 s for the client first).
 */
const AGENT_ANSWER_TIMEOUT = 25_000;

/** The SDK's failures of a request the client never answered: the person is asked instead. */
const NO_ANSWER = new Set<string>([
  SdkErrorCode.CapabilityNotSupported,
  SdkErrorCode.NotConnected,
  SdkErrorCode.RequestTimeout,
  SdkErrorCode.ConnectionClosed,
  SdkErrorCode.SendFailed,
]);

/**
 * The app's `elicit` asked of the MCP client as a form (undefined, for the messenger's sheet, when it cannot be). It
 * goes on the call's own stream (a client need not open the session's GET stream). An answer that does not fit the
 * form is the agent's refusal of it: the app gets null, as for a decline, and the agent is told why by a progress
 * notification (a person's sheet asked after it would leave the agent waiting on nobody).
 */
const elicitOf =
  (
    ctx: ServerContext,
    progress: RelayCall['progress'],
    ended: AbortSignal,
    timeout: number,
  ): NonNullable<RelayCall['elicit']> =>
  async ({ prompt, schema }) => {
    const form = elicitForm(schema);
    if (!form) return undefined;
    // A call that ends meanwhile (its page closed, svc dev stopped) cancels the question (notifications/cancelled),
    // so the client stops asking its user something whose answer goes nowhere.
    const answer = await ctx.mcpReq
      .elicitInput(
        { mode: 'form', message: prompt, requestedSchema: form.requestedSchema },
        { relatedRequestId: ctx.mcpReq.id, signal: ended, timeout },
      )
      .catch((error: unknown) => error);
    if (ended.aborted) return undefined;
    // Not asked, or no answer (not connected, timed out, the stream gone): the person answers in the sheet.
    if (answer instanceof SdkError && NO_ANSWER.has(answer.code)) return undefined;
    // Any other answer is the agent's, and one that is no answer to the form (not its schema, not an object, an
    // unknown action, an error) is its refusal of it: the app gets null, as for a decline, and the agent is told why.
    // The app's schema as it gave it holds the answer too: the form's narrower one may not carry it whole
    // (`additionalProperties: false`).
    const declined = (why: string) => {
      progress(why);
      return { value: null };
    };
    const misfit = (why: string) =>
      declined(`the answer to the form did not fit its schema, so the app was given null (declined): ${why}`);
    // The SDK holds an accepted answer to the form's schema first, and says so as an error.
    if (answer instanceof Error && answer.message.startsWith(SDK_MISFIT))
      return misfit(answer.message.slice(SDK_MISFIT.length));
    if (answer instanceof Error) return declined(answerError(answer));
    if (!answer) return misfit('no answer');
    const { action, content } = answer as { action: string; content?: unknown };
    if (action !== 'accept' || content === undefined || content === null) return { value: null };
    if (typeof content !== 'object' || Array.isArray(content)) return misfit('the content is not an object');
    const value = form.unwrap(content as Record<string, unknown>);
    // A schema the validator cannot compile was the form's to hold the answer to (the SDK's check above).
    const issues = (() => {
      try {
        return createInputValidator(schema as Record<string, unknown>)(value);
      } catch {
        return [];
      }
    })();
    return issues.length ? misfit(issues.map((issue) => issue.message).join('; ')) : { value };
  };

/**
 * How the error that stands for an answer whose JSON-RPC result is not an object starts (the endpoint makes it: the
 * SDK takes no such result).
 * @internal
 */
export const NOT_AN_OBJECT = 'the answer to the form is no elicitation result: its JSON-RPC result is';

/** How the SDK's error about an answer that does not fit the form's schema starts. */
const SDK_MISFIT = 'Elicitation response content does not match requested schema: ';

/**
 * What an elicitation's failed answer was, in a line: the SDK's check of an answer that is no elicitation result
 * (its action not accept, decline or cancel; its content not an object) lists its issues as JSON on many lines.
 */
function answerError(error: Error): string {
  const outcome = 'so the app was given null (declined)';
  const notAnObject = error.message.indexOf(NOT_AN_OBJECT);
  if (notAnObject >= 0) return `${error.message.slice(notAnObject)}, ${outcome}`;
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
    return `the answer to the form is no elicitation result (an action of accept, decline or cancel, and content that is an object), ${outcome}`;
  return `the client answered the form with an error, ${outcome}: ${error.message.split('\n')[0]}`;
}

/**
 * The check of a call's arguments before it runs (depth, values JSON cannot carry, then the manifest's validator): an
 * `ERR_ACTION_INVALID_INPUT` result saying what to fix, or undefined when they fit. svc dev's endpoint and the stdio
 * bridge (before svc dev runs) refuse the same arguments with the same words.
 * @internal
 */
export function createArgumentCheck() {
  // Per action object: a changed manifest brings new ones, and their validators with them.
  const validators = new WeakMap<Action, InputValidator>();
  return (action: Action, input: unknown): CallToolResult | undefined => {
    if (tooDeepPath(input, MAX_ARGUMENT_DEPTH) !== undefined)
      return errorResult(
        'ERR_ACTION_INVALID_INPUT',
        `the arguments of ${action.name} nest more than ${MAX_ARGUMENT_DEPTH} levels deep: send them flatter, as its inputSchema describes.`,
        false,
      );
    // What JSON.parse lets through but the app could not be given as sent: a lone surrogate (a `\ud800` escape without
    // its low half) is no text, and a number beyond a double's range (1e400) is Infinity, which reaches the app as
    // null; named here as the agent sent them, not as the null they would become.
    const malformed = findMalformedValue(input);
    if (malformed)
      return errorResult(
        'ERR_ACTION_INVALID_INPUT',
        `the arguments of ${action.name}: ${formatJsonPath(malformed.path)} ${malformed.problem}; ${malformed.fix}`,
        false,
      );
    const validate = validators.get(action) ?? createInputValidator(action.input_schema);
    validators.set(action, validate);
    const issues = validate(input);
    // Checked here too, so a malformed call fails at once instead of waiting in the queue; the page's host checks
    // it again before the app or the person sees it.
    if (issues.length)
      return errorResult(
        'ERR_ACTION_INVALID_INPUT',
        `the arguments do not fit the inputSchema of ${action.name}: ${issues.map((i) => i.message).join('; ')}.`,
        false,
      );
    return undefined;
  };
}

/**
 * The handler of every tool: finds the action in the manifest of now, checks the arguments (depth, then the
 * manifest's validator) so that a bad call fails at once with svc's code and advice, runs it in the page through
 * the relay with progress, cancellation and (with `--elicit agent`, 2025-era clients that can) form elicitation, and
 * answers its output or its error as an MCP result.
 * @internal
 */
export function createToolCall(options: ToolCallOptions) {
  const check = createArgumentCheck();
  return async ({ manifest, name, args, ctx, server, era }: ToolCall): Promise<CallToolResult> => {
    const agentId = options.agentId ?? agentIdFrom(server.server.getClientVersion()?.name);
    // A call refused here never reaches the app: the terminal and the page hear of it all the same, as the agent got it.
    const said = (result: CallToolResult) => {
      // errorResult always sets both.
      const code = (result._meta?.[SVC_ERROR_META] as { code?: string } | undefined)?.code ?? 'ERR_INTERNAL';
      const { text } = result.content[0] as { text: string };
      options.relay.refused({ name, agentId, input: args ?? {} }, code, text.slice(code.length + 2));
      return result;
    };
    const action = manifest.actions?.find((a) => a.name === name);
    if (!action)
      return said(
        errorResult(
          'ERR_ACTION_NOT_DECLARED',
          `the app has no tool ${name} (its tools: ${(manifest.actions ?? []).map((a) => a.name).join(', ') || 'none'}).`,
          false,
        ),
      );
    const input = args ?? {};
    const refused = check(action, input);
    if (refused) return said(refused);
    const canElicit =
      options.elicit === 'agent' && era === 'legacy' && server.server.getClientCapabilities()?.elicitation;
    const progress = progressOf(ctx);
    const ended = new AbortController();
    const outcome = await options.relay
      .run({
        name: action.name,
        input,
        agentId,
        safeToRepeat: safeToRepeat(action),
        // The HTTP request's signal too: a 2025-era client that dies mid-call sends no cancellation, its connection
        // just closes, and the call (and any sheet it raised) must end with it.
        signal: eitherSignal(ctx.mcpReq.signal, ctx.http?.req?.signal),
        progress,
        elicit: canElicit
          ? elicitOf(ctx, progress, ended.signal, options.agentAnswerTimeout ?? AGENT_ANSWER_TIMEOUT)
          : undefined,
      })
      .finally(() => ended.abort());
    return outcome.ok
      ? toolResult(action, outcome.value)
      : errorResult(outcome.code, outcome.message, outcome.retriable);
  };
}
