import type { MiddlewareHandler } from 'hono';
import type * as z from 'zod';
import type { PlatformEnv } from './PlatformEnv';
import { ProblemError } from './ProblemError';
import { CONTROL_BODY_DEPTH, parseJsonObject } from './parseJsonObject';

// What the control API says of a body that is not a JSON object, by what is wrong with it.
const FAULTS = {
  utf8: 'The body is not valid UTF-8: send JSON encoded as UTF-8.',
  json: 'The body is not JSON: send a JSON object.',
  shape: 'The body must be a JSON object: send {} when the route needs no field.',
} as const;

/** A JSON object body (an empty one is `{}`), or a {@link ProblemError} naming what is wrong with it. */
async function readObject(body: Promise<ArrayBuffer>): Promise<Record<string, unknown>> {
  const read = parseJsonObject(new Uint8Array(await body), true, CONTROL_BODY_DEPTH);
  if ('fault' in read)
    throw new ProblemError('invalid-request', read.fault === 'refused' ? read.message : FAULTS[read.fault]);
  return read.value;
}

/**
 * Checks a body against a schema, or throws a {@link ProblemError} whose detail is the first issue's sentence (a
 * field the route does not have first), naming the field.
 * @internal
 */
export function checkBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  // A misspelt field is both unknown and missing: naming the unknown one says what to fix.
  const issue = result.error.issues.find((i) => i.code === 'unrecognized_keys') ?? result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  // Zod's own sentences (a wrong type at the root) lack the field; ours start with it.
  const message = issue?.message ?? 'the body is not valid.';
  throw new ProblemError('invalid-request', field && !message.startsWith(field) ? `${field}: ${message}` : message);
}

/**
 * The validator of a control route: its body is a JSON object (an empty body is `{}`), checked against `schema` when
 * the route has one; the handler reads it with `c.req.valid('json')`, and Hono's typed client sends it as `json`.
 * @internal
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<PlatformEnv, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }>;
export function jsonBody<T extends object>(): MiddlewareHandler<
  PlatformEnv,
  string,
  { in: { json: T }; out: { json: T } }
>;
export function jsonBody(schema?: z.ZodType): MiddlewareHandler<PlatformEnv> {
  return async (c, next) => {
    const body = await readObject(c.req.arrayBuffer());
    c.req.addValidatedData('json', schema ? (checkBody(schema, body) as object) : body);
    await next();
  };
}
