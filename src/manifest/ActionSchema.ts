import * as z from 'zod';
import { boundedText } from './boundedText';
import { show } from './helpers';

/** Lowercase letter, then lowercase letters, digits, underscores. */
const ACTION_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * The JSON Schema of an action's input: an object here; {@link validateManifest} checks it as JSON Schema 2020-12
 * with `additionalProperties: false` at the root (errors) and closed nested objects (warnings), in one pass.
 * @public
 */
export const InputSchemaSchema = z.record(z.string(), z.unknown()).meta({
  description:
    'JSON Schema 2020-12 of the input; the root must be "type": "object" with "additionalProperties": false.',
});

/**
 * The `annotations` of an action: declarations about its effects, signed with the package.
 * @public
 */
export const ActionAnnotationsSchema = z
  .strictObject({
    read_only: z.boolean().meta({ description: 'The action changes nothing.' }),
    destructive: z.boolean().meta({ description: 'The action may delete or overwrite something irreversibly.' }),
    idempotent: z
      .boolean()
      .meta({ description: 'Calling it twice with the same input has the effect of calling it once.' }),
    open_world: z
      .boolean()
      .meta({ description: 'The action reaches systems outside the mini app (other services, people).' }),
  })
  .meta({ description: 'Declarations about the action, all four required. They are declarations, not guarantees.' });

/**
 * An entry of `actions`: a tool an AI agent can call.
 * @public
 */
export const ActionSchema = z
  .strictObject({
    name: z
      .string()
      .regex(ACTION_NAME_PATTERN, {
        error: ({ input }) =>
          `must start with a lowercase letter, then only lowercase letters, digits and underscores; got ${show(input)}${suggestName(String(input))}`,
      })
      .meta({
        description:
          'Tool name: a lowercase letter, then lowercase letters, digits, underscores. Needs a svc.actions.handle(name, ...) handler.',
      }),
    title: boundedText(1, 60, 'Human title of the action (1 to 60 characters).'),
    description: boundedText(
      30,
      undefined,
      'What the action does for an agent (at least 30 characters): context, units and formats, and what is irreversible.',
      { lines: true },
    ),
    route: z.string().optional().meta({ description: 'A declared route that shows the action, such as "/orders".' }),
    input_schema: InputSchemaSchema,
    output_schema: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'JSON Schema 2020-12 of the result (free-form).' }),
    annotations: ActionAnnotationsSchema,
    confirm: z
      .enum(['always', 'never', 'if_destructive'])
      .meta({ description: 'Confirmation floor; tenant and user policy may make it stricter, never looser.' }),
  })
  .meta({ description: 'An action in the agent tool registry.' });

/** A camelCase or dashed name rewritten in the allowed form, as "; write ..." when that differs and is valid. */
function suggestName(value: string): string {
  const fixed = value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '');
  return fixed && fixed !== value && ACTION_NAME_PATTERN.test(fixed) ? `; write "${fixed}"` : '';
}
