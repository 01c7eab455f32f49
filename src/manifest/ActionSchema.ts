import * as z from 'zod';
import { boundedText } from './boundedText';
import { checkJsonSchema } from './checkJsonSchema';

/** Lowercase letter, then lowercase letters, digits, underscores. */
export const ACTION_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * The JSON Schema of an action's input: an object schema, checked as JSON Schema 2020-12 with
 * `additionalProperties: false` at the root.
 * @public
 */
export const InputSchemaSchema = z
  .record(z.string(), z.unknown())
  .superRefine((schema, ctx) => {
    // Warnings (nested open objects, unknown keywords) cannot live in zod; validateManifest reports them.
    for (const problem of checkJsonSchema(schema, { closedObjects: true })) {
      if (problem.severity !== 'error') continue;
      ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, params: { code: problem.code } });
    }
  })
  .meta({
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
    name: z.string().regex(ACTION_NAME_PATTERN).meta({
      description:
        'Tool name: a lowercase letter, then lowercase letters, digits, underscores. Needs a svc.actions.handle(name, ...) handler.',
    }),
    title: boundedText(1, 60, 'Human title of the action (1 to 60 characters).'),
    description: boundedText(
      30,
      undefined,
      'What the action does for an agent (at least 30 characters): context, units and formats, and what is irreversible.',
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
