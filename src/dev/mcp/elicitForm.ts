const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);
const isPrimitive = (schema: unknown) =>
  typeof schema === 'object' &&
  schema !== null &&
  (PRIMITIVES.has((schema as { type?: string }).type ?? '') || Array.isArray((schema as { enum?: unknown }).enum));

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
): { requestedSchema: Record<string, unknown>; unwrap(content: Record<string, unknown>): unknown } | undefined {
  if (isPrimitive(schema))
    return {
      requestedSchema: { type: 'object', properties: { [ELICIT_VALUE]: schema }, required: [ELICIT_VALUE] },
      unwrap: (content) => content[ELICIT_VALUE],
    };
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (schema.type !== 'object' || typeof properties !== 'object' || properties === null) return undefined;
  if (!Object.values(properties).every(isPrimitive)) return undefined;
  const { type, properties: _, required } = schema;
  return {
    requestedSchema: { type, properties, ...(Array.isArray(required) ? { required } : {}) },
    unwrap: (content) => content,
  };
}
