// Checks answers and webhooks against the published contract, schema/server-api.openapi.json, in-process with
// @cfworker/json-schema: the schema of the operation and status, with the document's components for its $refs.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';

type Json = Record<string, any>;

/** The committed contract, as published. */
export const contract: Json = JSON.parse(
  // A path, not a file URL: under happy-dom, URL is the DOM's, which node:url does not take.
  readFileSync(join(import.meta.dirname, '../../schema/server-api.openapi.json'), 'utf8'),
);

/**
 * The contract's components, with what `svc dev` sends closed: the published document leaves answers, events and
 * problem details open (a receiver ignores fields it does not know), and these checks refuse a field `svc dev` sends
 * that the contract does not state. Request bodies stay open, as the platform reads them.
 */
const closedComponents: Json = {
  ...contract.components,
  schemas: Object.fromEntries(
    Object.entries(contract.components.schemas as Json).map(([name, schema]) => [
      name,
      name.endsWith('Request') ? schema : close(schema),
    ]),
  ),
};

/** The schema with each object that lists its properties closed to others. */
function close(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(close);
  if (!schema || typeof schema !== 'object') return schema;
  const closed = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, close(value)]));
  return 'properties' in closed && !('additionalProperties' in closed)
    ? { ...closed, additionalProperties: false }
    : closed;
}

const validators = new Map<object, Validator>();
/** The issues of `value` against `schema` (a part of the contract), as sentences. */
function check(schema: object, value: unknown): string[] {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator({ ...schema, components: closedComponents } as never, '2020-12', false);
    validators.set(schema, validator);
  }
  const result = validator.validate(value);
  return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** The contract's path template that a request path (starting with /v1) fits, and its operation. */
function operationOf(method: string, path: string): Json | undefined {
  const segments = path.split('?')[0]!.split('/').filter(Boolean).slice(1);
  for (const [template, item] of Object.entries(contract.paths as Json)) {
    const parts = template.split('/').filter(Boolean);
    if (parts.length === segments.length && parts.every((p, i) => p.startsWith('{') || p === segments[i]))
      return (item as Json)[method.toLowerCase()] ?? { methodless: true };
  }
  return undefined;
}

/** An answer of the server API as received. */
export interface ServerApiExchange {
  method: string;
  /** The request path, starting with /v1. */
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * What in a server API answer the contract does not allow: the status must be documented for the operation, the
 * content type and body must match its schema, and a 429 must carry `Retry-After`. A path or method outside the
 * contract must be answered 404 or 405 problem details. A HEAD is held to its GET, without a body.
 */
export function checkServerApiAnswer(exchange: ServerApiExchange): string[] {
  const { method, path, status, headers, body } = exchange;
  // HEAD is GET without the body (RFC 9110): its status and headers are the GET's.
  const head = method === 'HEAD';
  const operation = operationOf(head ? 'GET' : method, path);
  // Unknown endpoints answer problem details too: check them against any operation's 404/405.
  const anyOperation = contract.paths['/rooms/{room_id}/cards'].post as Json;
  const responses = (operation && !operation.methodless ? operation : anyOperation).responses as Json;
  const response = responses[String(status)] as Json | undefined;
  const where = `${method} ${path} ${status}`;
  if (!response) return [`${where}: the contract documents no ${status} for this operation`];
  if ((!operation || operation.methodless) && status !== 404 && status !== 405 && status < 400)
    return [`${where}: an endpoint outside the contract answered success`];
  const [type, media] = Object.entries(response.content as Json)[0]!;
  const issues: string[] = [];
  const contentType = headers.get('content-type') ?? '';
  if (!contentType.startsWith(type)) issues.push(`${where}: content-type ${contentType}, the contract says ${type}`);
  for (const name of Object.keys(response.headers ?? {}))
    if (!headers.get(name)) issues.push(`${where}: the ${name} header is missing`);
  if (head) return issues;
  return [...issues, ...check((media as Json).schema, body).map((issue) => `${where} ${issue}`)];
}

/**
 * Reads an answer taken through node:http (a test that needs byte-level control of the request) and checks it against
 * the published contract, as the fetch-based helpers do: rejects naming each way it breaks the contract.
 */
export async function readCheckedAnswer(
  res: IncomingMessage,
  method: string,
  path: string,
): Promise<{ status: number; headers: IncomingMessage['headers']; body: any }> {
  const parts: Buffer[] = [];
  for await (const part of res) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  const answer = { status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  const issues = checkServerApiAnswer({
    method,
    path,
    status: answer.status,
    headers: new Headers(res.headers as Record<string, string>),
    body: answer.body,
  });
  if (issues.length) throw new Error(`svc dev broke its contract:\n${issues.join('\n')}`);
  return answer;
}

/** What in a webhook as sent the contract does not allow: its headers and its payload, by its event name. */
export function checkWebhook(headers: Headers, body: string): string[] {
  let payload: Json;
  try {
    payload = JSON.parse(body);
  } catch {
    return ['webhook: the body is not JSON'];
  }
  const operation = contract.webhooks[payload.event]?.post as Json | undefined;
  if (!operation) return [`webhook: ${String(payload.event)} is not an event of the contract`];
  const issues: string[] = [];
  for (const parameter of operation.parameters as Json[]) {
    const value = headers.get(parameter.name);
    if (value === null) {
      if (parameter.required) issues.push(`webhook ${payload.event}: the ${parameter.name} header is missing`);
      continue;
    }
    for (const issue of check(parameter.schema, value))
      issues.push(`webhook ${payload.event} ${parameter.name} ${issue}`);
  }
  const schema = operation.requestBody.content['application/json'].schema;
  return [...issues, ...check(schema, payload).map((issue) => `webhook ${payload.event} ${issue}`)];
}
