import * as z from 'zod';
import { WEBHOOK_EVENTS } from '../server/events';
import { findMalformedValue } from '../manifest/findMalformedValue';
import { jsonQuote } from '../manifest/jsonQuote';
import { LIMITS } from './limits';

/** A JSON value, as a check alone (what it parses to is not kept). */
const JSON_VALUE = z.json();

// Each field says, in its error, what to send instead: a control body is typed by people and tests too.
/** Whole characters only, as the server API has them: no UTF-8 can carry half of one (a lone surrogate). */
const wholeCharacters = (field: string, schema: z.ZodString) =>
  schema.refine((value) => !findMalformedValue(value), {
    error: (issue) => {
      const { problem, fix } = findMalformedValue(issue.input)!;
      return `${field} ${problem}: ${fix}`;
    },
  });
const id = (field: string, what = 'a person id such as alice') =>
  wholeCharacters(
    field,
    z
      .string({ error: `${field} must be a string: send ${what}.` })
      .min(1, { error: `${field} is empty: send ${what}.` })
      .max(LIMITS.id, { error: `${field} is longer than ${LIMITS.id} characters: send ${what}.` }),
  );
const text = (field: string, max: number) =>
  wholeCharacters(
    field,
    z
      .string({ error: `${field} must be a string: send text.` })
      .min(1, { error: `${field} is missing: send a non-empty string.` })
      .max(max, { error: `${field} is longer than ${max} characters: send at most ${max}.` }),
  );

/**
 * An object of these fields and no other: a misspelt field (`user` for `user_id`) is named, where it would be ignored
 * and the route would act on the default (the current person) without a word. `what` is the sentence for a value that
 * is not an object at all.
 */
const fields = <S extends z.ZodRawShape>(shape: S, what?: string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFields(issue.keys, Object.keys(shape)) : what),
  });

/**
 * The sentence for fields a body should not have: the first three named as JSON strings (a name may hold an invisible
 * character, or be as long as the body), then how many more, and the fields the route takes.
 */
function unknownFields(keys: string[], known: string[]): string {
  const named = keys.slice(0, 3).map((key) => jsonQuote(key.length > 40 ? `${key.slice(0, 40)}…` : key));
  const more = keys.length > 3 ? ` and ${keys.length - 3} more` : '';
  const which = `unknown field${keys.length > 1 ? 's' : ''} ${named.join(', ')}${more}`;
  return known.length ? `${which}: the fields are ${known.join(', ')}.` : `${which}: this route takes none, send {}.`;
}

/** Seconds a rotated-out secret may still verify: at most 30 days (the default is the platform's one hour). */
const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;

const userAction = { user_id: id('user_id').optional() };

/** The id of a running MCP call, from its `mcp-invoke` event. */
const mcpCall = id('id', "the running call's id from its mcp-invoke event");

/**
 * The body schema of each control route that takes one: what the route checks, and (its input) the body type the
 * contract names (`ControlBody` in src/dev/devContract.ts). @internal
 */
export const CONTROL_BODIES = {
  'POST /__svc/subject-token': fields({
    user_id: id('user_id').optional(),
    agent_id: id('agent_id', 'an agent id such as agent-7').optional(),
  }),
  'POST /__svc/install': fields(userAction),
  'POST /__svc/uninstall': fields({
    ...userAction,
    removed_by: z.enum(['user', 'admin'], { error: "removed_by is not known: send 'user' or 'admin'." }).optional(),
  }),
  'POST /__svc/deprovision': fields(userAction),
  'POST /__svc/grant': fields({ ...userAction, scope: text('scope', LIMITS.id) }),
  'POST /__svc/revoke': fields({ ...userAction, scope: text('scope', LIMITS.id) }),
  'POST /__svc/message': fields({
    room_id: id('room_id', 'a room id such as general'),
    text: text('text', LIMITS.messageText),
    // The card the person confirmed sending with svc.message.send, shown in the timeline as a card.
    card: fields(
      {
        title: text('card.title', LIMITS.cardTitle),
        body: z.string({ error: 'card.body must be a string: send text.' }).max(LIMITS.cardBody, {
          error: `card.body is longer than ${LIMITS.cardBody} characters: send at most ${LIMITS.cardBody}.`,
        }),
        actions: z
          .array(
            fields({
              label: text('card.actions[].label', LIMITS.actionLabel),
              deep_link: text('card.actions[].deep_link', LIMITS.deepLink),
            }),
            { error: 'card.actions must be a list of { label, deep_link }.' },
          )
          .max(LIMITS.cardActions, {
            error: `card.actions has more than ${LIMITS.cardActions}: send at most that many.`,
          })
          .default([]),
      },
      'card must be { title, body, actions: [{ label, deep_link }] }.',
    ).optional(),
  }),
  'POST /__svc/rooms': fields({
    name: text('name', LIMITS.roomName),
    is_encrypted: z.boolean({ error: 'is_encrypted must be a boolean: send true or false.' }).optional(),
  }),
  'PATCH /__svc/settings': fields({
    theme: z
      .enum(['system', 'light', 'dark'], { error: "theme is not known: send 'system', 'light' or 'dark'." })
      .optional(),
    locale: z
      .string({ error: 'locale must be a string: send a language tag such as en or fr-CA.' })
      .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,4}$/, {
        error: 'locale is not a language tag: send one such as en or fr-CA.',
      })
      .optional(),
    current_user_id: id('current_user_id').optional(),
    current_room_id: z
      .string({ error: "current_room_id must be a string: a room id, or '' for the home grid." })
      .max(LIMITS.id, { error: `current_room_id is longer than ${LIMITS.id} characters: send a room id.` })
      .optional(),
  }),
  // The app's svc.storage, kept by the platform per person (so a reload, another tab and a restart with --state see
  // it): set one key, remove one, or clear them all.
  'POST /__svc/storage': fields({
    ...userAction,
    op: z.enum(['set', 'remove', 'clear'], { error: "op is not known: send 'set', 'remove' or 'clear'." }),
    key: z
      .string({ error: 'key must be a string: send the storage key.' })
      .min(1, { error: 'key is empty: send the storage key.' })
      .optional(),
    // Checked as JSON and kept as sent: zod's copy of an object would lose a `__proto__` key the app stored in it.
    value: z
      .custom<unknown>((value) => JSON_VALUE.safeParse(value).success, {
        error: 'value must be JSON: send the value to store.',
      })
      .optional(),
  }),
  'POST /__svc/notifications/read': fields({ id: id('id', "a notification's id from GET /__svc/state") }),
  'POST /__svc/deliveries/resend': fields({ id: id('id', "a delivery's id from GET /__svc/state") }),
  'POST /__svc/deliveries/resend-failed': fields({}),
  'POST /__svc/reset': fields({}),
  'POST /__svc/deliveries/test': fields({
    event: z.enum(WEBHOOK_EVENTS, { error: `event is not known: send one of ${WEBHOOK_EVENTS.join(', ')}.` }),
  }),
  'POST /__svc/revoke-version': fields({ reason: text('reason', 500).optional() }),
  'POST /__svc/rotate-secret': fields({
    overlap_seconds: z
      .number({ error: 'overlap_seconds must be a number: send whole seconds, such as 3600.' })
      .int({ error: 'overlap_seconds has a fraction: send whole seconds.' })
      .min(0, { error: 'overlap_seconds is negative: send 0 or more seconds.' })
      .max(MAX_OVERLAP_SECONDS, {
        error: `overlap_seconds is more than ${MAX_OVERLAP_SECONDS} (30 days): send a shorter overlap.`,
      })
      .optional(),
  }),
  'POST /__svc/page-event': z.discriminatedUnion(
    'type',
    [
      fields({
        type: z.literal('launch'),
        user: wholeCharacters('user', z.string({ error: 'user must be a string: send the person id.' }).max(LIMITS.id)),
        room: wholeCharacters('room', z.string({ error: 'room must be a string: send the room id.' }).max(LIMITS.id)),
      }),
      fields({
        type: z.literal('no-hello'),
        seconds: z
          .number({ error: 'seconds must be a number: send how long the app was silent.' })
          .min(0, { error: 'seconds is below 0: send how long the app was silent.' })
          .max(86_400, { error: 'seconds is over a day: send how long the app was silent.' }),
      }),
    ],
    { error: "type must be 'launch' or 'no-hello': send one of them." },
  ),
  // The page's answers to a relayed MCP call, each naming the running call by the id of its mcp-invoke event.
  'POST /__svc/mcp/progress': fields({
    id: mcpCall,
    message: z.string({ error: 'message must be a string: send the progress text.' }).optional(),
    waiting: z
      .boolean({ error: 'waiting must be a boolean: send true while a sheet waits for the person.' })
      .optional(),
    confirming: z
      .boolean({ error: 'confirming must be a boolean: send true while the person is asked to confirm the call.' })
      .optional(),
  }),
  'POST /__svc/mcp/result': fields({
    id: mcpCall,
    result: z.unknown().optional(),
    error: fields(
      {
        code: text('error.code', LIMITS.id),
        message: z.string({ error: 'error.message must be a string: send the error sentence.' }),
        retriable: z.boolean({ error: 'error.retriable must be a boolean: send true or false.' }),
      },
      'error must be { code, message, retriable }.',
    ).optional(),
  }),
  'POST /__svc/mcp/elicit': fields({
    id: mcpCall,
    prompt: text('prompt', LIMITS.controlBody),
    schema: z.record(z.string(), z.unknown(), {
      error: 'schema must be an object: send the JSON Schema of the answer.',
    }),
  }),
};
