import * as z from 'zod';
import { SERVER_API_LIMITS as L } from './serverApiLimits';

// Each message lacks its field's name: the one reading the issue puts the field's path in front (`card.title is
// missing: ...`), which also names the index of an action (`card.actions[2].label`). A length is in characters
// (Unicode code points), as zod's `max` and JSON Schema's `maxLength` count: an emoji is one, not two UTF-16 units.
const characters = (input: unknown) => [...String(input)].length;
const text = (max: number, what: string, description: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `is missing: send ${what} as a non-empty string.`
          : `must be a string: send ${what} as a non-empty string.`,
    })
    .min(1, { error: `is empty: send ${what} as a non-empty string.` })
    .max(max, { error: (issue) => `has ${characters(issue.input)} characters: send at most ${max}.` })
    .meta({ description });

const CardAction = z
  .object(
    {
      label: text(L.actionLabel, 'a button label', 'Button text.'),
      deep_link: text(
        L.deepLink,
        'a route inside the app',
        'A route inside the mini app, opened when the button is pressed: a path starting with a single `/` that matches one of the manifest `routes` (a `:name` segment matches any value; a query may follow), each segment compared percent-decoded and in Unicode NFC on both sides, so `/caf%C3%A9` opens a declared `/café`. Anything else (a URL, `//host`, a path without its leading `/`, an undeclared route) is 400, as no person could open it; so is a link no URL library writes: a raw space or control character (percent-encode it), or malformed percent-encoding (`%E0`); and so is a fragment (`#…`), which no route holds (a `#` inside a value is `%23`).',
      ),
    },
    { error: 'must be {label, deep_link}: fix or omit it.' },
  )
  .meta({ description: 'One button of a card.' });

const Card = z
  .object(
    {
      title: text(L.cardTitle, 'the card title', 'Card title.'),
      body: z
        .string({
          error: (issue) =>
            issue.input === undefined
              ? 'is missing: send the card text as a string.'
              : 'must be a string: send the card text as a string (it may be empty).',
        })
        .max(L.cardBody, {
          error: (issue) => `has ${characters(issue.input)} characters: send at most ${L.cardBody}.`,
        })
        .meta({ description: 'Card body text (may be empty).' }),
      actions: z
        .array(CardAction, { error: 'must be an array of {label, deep_link} strings: fix or omit it.' })
        .max(L.cardActions, {
          error: (issue) => `has ${(issue.input as unknown[]).length} actions: send at most ${L.cardActions}.`,
        })
        .optional()
        .meta({ description: 'Buttons; omit for a card without buttons.' }),
    },
    {
      error: (issue) =>
        issue.input === undefined
          ? 'is missing: send {title, body, actions?}.'
          : 'must be an object: send {title, body, actions?}.',
    },
  )
  .meta({ description: 'A rich message card.' });

const miniAppId = text(
  L.id,
  'your mini app id',
  "The mini app's id: its manifest `id` (the same as `X-Svc-Mini-App`).",
);
const appUserId = text(L.id, "the sub of the person's token", "The person's app user id: the `sub` of their token.");

const PostCardRequest = z
  .object({ mini_app_id: miniAppId, app_user_id: appUserId, card: Card })
  .meta({ description: 'Posts a card into a room, on behalf of the mini app, naming the person it is for.' });

/** An answer that names what was made by its id: the id's field and words, and the answer's. */
const idAnswer = <F extends string>(field: F, idDescription: string, description: string) =>
  z
    .strictObject({ [field]: z.string().meta({ description: idDescription }) } as Record<F, z.ZodString>)
    .meta({ description });

const PostCardResponse = idAnswer('event_id', 'The room event id of the posted card.', 'The card was posted.');

const NotificationRequest = z
  .object({
    mini_app_id: miniAppId,
    title: text(L.notificationTitle, 'the notification title', 'Notification title.'),
    body: text(L.notificationBody, 'the notification text', 'Notification text.'),
    deep_link: text(
      L.deepLink,
      'a route inside the app',
      "A route inside the mini app, opened from the notification: a path that matches one of the manifest `routes`, percent-decoded, under the rules of a card action's `deep_link`.",
    ),
  })
  .meta({ description: 'Notifies one person; needs the `notifications` scope granted by that person.' });

const NotificationResponse = idAnswer(
  'notification_id',
  'The id of the notification.',
  'The notification was accepted.',
);

const Installation = z
  .strictObject({
    installed: z.boolean().meta({ description: 'Whether the person has the mini app installed.' }),
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/)
      .meta({
        description:
          'The installed version (semantic version). When `installed` is false: the version the person last had, or the version served now if they never installed it.',
      }),
    granted_scopes: z
      .array(z.string())
      .meta({ description: 'The manifest scopes the person granted (empty when not installed).' }),
    tenant_id: z.string().meta({ description: "The person's tenant." }),
  })
  .meta({ description: 'Installation state of the mini app for one person.' });

const AgentVerifyRequest = z
  .object({
    token: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? 'is missing: send the app token that carries the act claim.'
            : 'must be a string: send the app token that carries the act claim.',
      })
      .min(1, { error: 'is empty: send the app token that carries the act claim.' })
      .meta({ description: 'The app token an agent obtained (it carries the `act` claim).' }),
  })
  .meta({ description: 'The token to verify.' });

const AgentDelegation = z
  .strictObject({
    subject: z
      .strictObject({ app_user_id: z.string().meta({ description: 'On whose behalf the agent acts.' }) })
      .meta({ description: 'The person.' }),
    actor: z
      .strictObject({
        agent_id: z.string().meta({ description: 'The agent (`act.sub`).' }),
        kind: z
          .string()
          .meta({ description: 'The kind of actor; `svc_agent` is the value seen.', examples: ['svc_agent'] }),
      })
      .meta({ description: 'Who acts.' }),
    tenant_policy: z
      .strictObject({
        max_approval_minor: z
          .int()
          .nonnegative()
          .meta({ description: 'The most an agent may approve, in minor currency units.' }),
        currency_code: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .meta({ description: 'ISO 4217 currency code.' }),
      })
      .meta({ description: "The tenant's policy for agent-initiated actions." }),
  })
  .meta({ description: "What the platform knows about an agent's token: for a lower limit on agent actions." });

const Problem = z
  .strictObject({
    type: z.url().meta({ description: '`{errors_url}/<kebab-case-name>`: the problem name is its last segment.' }),
    title: z.string().meta({ description: 'A short summary of the problem type.' }),
    status: z.int().min(400).max(599).meta({ description: 'The HTTP status.' }),
    detail: z.string().meta({ description: 'A sentence saying what to do; names the field when one is wrong.' }),
    instance: z.string().meta({ description: 'The request path.' }),
  })
  .meta({ description: 'RFC 9457 problem details: how the server API answers every error.' });

/**
 * The server API's bodies as zod schemas, by the name the published contract (`schema/server-api.openapi.json`)
 * gives them: the local platform checks requests with them and the contract is generated from them. Request
 * schemas keep unknown fields (a newer client may send more); answers are closed, so a conformance test catches
 * a field the contract does not state.
 * @internal
 */
export const SERVER_API_SCHEMAS = {
  CardAction,
  Card,
  PostCardRequest,
  PostCardResponse,
  NotificationRequest,
  NotificationResponse,
  Installation,
  AgentVerifyRequest,
  AgentDelegation,
  Problem,
};
