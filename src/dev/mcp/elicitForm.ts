import type { ElicitRequestFormParams, PrimitiveSchemaDefinition } from '@modelcontextprotocol/server';

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);
/** Whether a schema is one MCP form field: a string, number, integer or boolean, or an enum. */
const isPrimitive = (schema: unknown): schema is PrimitiveSchemaDefinition =>
  typeof schema === 'object' &&
  schema !== null &&
  (('type' in schema && typeof schema.type === 'string' && PRIMITIVES.has(schema.type)) ||
    ('enum' in schema && Array.isArray(schema.enum)));

/** The property a primitive elicit schema is wrapped in, so that it can be an MCP form. @internal */
const ELICIT_VALUE = 'value';

/**
 * The MCP form of an `elicit` schema, when it can be one: an object of primitive properties (string, number,
 * integer, boolean, enum) as it is, a primitive wrapped as `{ value }`; undefined for anything else (arrays, nested
 * objects, `$ref`), which the person answers in the messenger's sheet instead.
 * @internal
 */
export function elicitForm(
  schema: Record<string, unknown>,
):
  | { requestedSchema: ElicitRequestFormParams['requestedSchema']; unwrap(content: Record<string, unknown>): unknown }
  | undefined {
  if (isPrimitive(schema))
    return {
      requestedSchema: { type: 'object', properties: { [ELICIT_VALUE]: schema }, required: [ELICIT_VALUE] },
      unwrap: (content) => content[ELICIT_VALUE],
    };
  const properties = schema.properties;
  if (schema.type !== 'object' || typeof properties !== 'object' || properties === null) return undefined;
  const fields = Object.entries(properties);
  const primitive = fields.filter((field): field is [string, PrimitiveSchemaDefinition] => isPrimitive(field[1]));
  if (primitive.length !== fields.length) return undefined;
  const { required } = schema;
  return {
    requestedSchema: {
      type: 'object',
      properties: Object.fromEntries(primitive),
      ...(Array.isArray(required) ? { required } : {}),
    },
    unwrap: (content) => content,
  };
}
