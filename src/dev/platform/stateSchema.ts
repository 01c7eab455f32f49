import * as z from 'zod';
import type { DevState } from '../devContract';

const str = z.string();
const entry = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('message'), event_id: str, sender: str, text: str, at: str }),
  z.looseObject({
    kind: z.literal('card'),
    event_id: str,
    mini_app_id: str,
    app_user_id: str,
    at: str,
    card: z.looseObject({
      title: str,
      body: str,
      actions: z.array(z.looseObject({ label: str, deep_link: str })),
    }),
  }),
]);

/**
 * The shape of {@link DevState}, checked on every state loaded from a file (unknown fields are kept, so a newer
 * platform's file loads whole).
 * @internal
 */
const DevStateSchema = z.looseObject({
  revision: z.number().int().nonnegative().optional(),
  mini_app_id: str,
  version: str,
  version_revoked: z.boolean().optional(),
  users: z.array(
    z.looseObject({
      id: str,
      app_user_id: str,
      display_name: str,
      tenant_id: str,
      deprovisioned: z.boolean().optional(),
    }),
  ),
  tenants: z.array(z.looseObject({ id: str, name: str, max_approval_minor: z.number(), currency_code: str })),
  rooms: z.array(
    z.looseObject({ id: str, name: str, is_encrypted: z.boolean(), members: z.array(str), timeline: z.array(entry) }),
  ),
  installations: z.array(
    z.looseObject({ user_id: str, mini_app_id: str, version: str, installed: z.boolean(), installed_at: str }),
  ),
  grants: z.array(z.looseObject({ user_id: str, mini_app_id: str, scopes: z.array(str) })),
  notifications: z.array(
    z.looseObject({
      id: str,
      user_id: str,
      mini_app_id: str,
      title: str,
      body: str,
      deep_link: str,
      at: str,
      read: z.boolean(),
    }),
  ),
  deliveries: z.array(
    z.looseObject({
      id: str,
      event: str,
      payload: z.record(str, z.unknown()),
      url: str,
      state: z.enum(['pending', 'delivered', 'failed']),
      attempts: z.array(z.looseObject({ at: str, duration_ms: z.number() })),
      next_attempt_at: str.optional(),
    }),
  ),
  settings: z.looseObject({
    theme: z.enum(['system', 'light', 'dark']),
    locale: str,
    current_user_id: str,
    current_room_id: str,
  }),
  secret: z.looseObject({ generation: z.number().int(), previous_valid_until: str.optional() }),
  package_port: z.number().int().min(1).max(65535).optional(),
  store: z
    .looseObject({
      key: str,
      key_id: str,
      highest: str,
      versions: z.array(z.looseObject({ version: str, sha256: str, signers: z.array(str), accepted_at: str })),
      retired_keys: z.array(str).optional(),
    })
    .optional(),
  storage: z.record(str, z.record(str, z.json())).optional(),
});

/** A loaded state, checked: the state, or what is missing or wrong in it, a sentence a field (at most five). */
function parseState(value: unknown): { state: DevState } | { problems: string[] } {
  // With the input reported, an issue holds the value when the field is there (of a wrong type or value): zod's
  // issues leave it out by default, which had every wrong type read as missing.
  const result = DevStateSchema.safeParse(value, { reportInput: true });
  if (!result.success)
    return {
      problems: result.error.issues.slice(0, 5).map((issue) => {
        const field = issue.path.join('.') || '(the whole state)';
        return issue.input === undefined ? `${field} is missing` : `${field}: ${issue.message}`;
      }),
    };
  // The person and room on screen name ones the state has, as the control API requires of them (a state that named
  // no user showed "not installed for undefined").
  const { users, rooms, settings } = result.data as unknown as DevState;
  const relations = [
    users.some((u) => u.id === settings.current_user_id)
      ? ''
      : `settings.current_user_id: ${JSON.stringify(settings.current_user_id)} names no user of users`,
    settings.current_room_id === '' || rooms.some((r) => r.id === settings.current_room_id)
      ? ''
      : `settings.current_room_id: ${JSON.stringify(settings.current_room_id)} names no room of rooms ('' is the home grid)`,
  ].filter(Boolean);
  if (relations.length) return { problems: relations };
  // The storage as it was read, checked: a copy zod builds loses a `__proto__` key (an assignment sets the
  // prototype), and an app may store under any key.
  const { storage } = value as { storage?: DevState['storage'] };
  return { state: { ...(result.data as unknown as DevState), ...(storage ? { storage } : {}) } };
}

/**
 * What is missing or wrong in a loaded state, a sentence a field (at most five); undefined when it is a whole state.
 * @internal
 */
export function stateProblems(value: unknown): string[] | undefined {
  const parsed = parseState(value);
  return 'problems' in parsed ? parsed.problems : undefined;
}

/**
 * Checks a loaded state, or throws an Error naming each field that is missing or wrong (at most five).
 * @internal
 */
export function checkState(value: unknown, where: string): DevState {
  const parsed = parseState(value);
  if ('problems' in parsed)
    throw new Error(
      `${where} is not a complete svc dev state (${parsed.problems.join('; ')}): fix it, or delete it to start fresh.`,
    );
  return parsed.state;
}
