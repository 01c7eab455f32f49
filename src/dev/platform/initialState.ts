import type { DevState } from '../devContract';

/**
 * The first state of a fresh launch: two tenants (Alice and Bob in Acme, Carol in Globex), a plain room and an
 * end-to-end encrypted one in Acme, a room of Globex's, the app installed for Alice and Carol with nothing granted.
 * @internal
 */
export function initialState(miniAppId: string, version: string): DevState {
  return {
    mini_app_id: miniAppId,
    version,
    users: [
      { id: 'alice', app_user_id: 'au-alice', display_name: 'Alice', tenant_id: 'acme' },
      { id: 'bob', app_user_id: 'au-bob', display_name: 'Bob', tenant_id: 'acme' },
      // Another organisation: the same app sees another app_user_id and another tenant_id.
      { id: 'carol', app_user_id: 'au-carol', display_name: 'Carol', tenant_id: 'globex' },
    ],
    tenants: [
      { id: 'acme', name: 'Acme', max_approval_minor: 50_000, currency_code: 'EUR' },
      { id: 'globex', name: 'Globex', max_approval_minor: 10_000, currency_code: 'USD' },
    ],
    rooms: [
      { id: 'general', name: 'General', is_encrypted: false, members: ['alice', 'bob'], timeline: [] },
      { id: 'board', name: 'Board (encrypted)', is_encrypted: true, members: ['alice', 'bob'], timeline: [] },
      // Globex's own room: a person sees the rooms of their tenant only.
      { id: 'globex', name: 'Globex team', is_encrypted: false, members: ['carol'], timeline: [] },
    ],
    installations: [
      { user_id: 'alice', mini_app_id: miniAppId, version, installed: true, installed_at: new Date().toISOString() },
      { user_id: 'carol', mini_app_id: miniAppId, version, installed: true, installed_at: new Date().toISOString() },
    ],
    grants: [{ user_id: 'alice', mini_app_id: miniAppId, scopes: [] }],
    notifications: [],
    deliveries: [],
    settings: { theme: 'system', locale: 'en', current_user_id: 'alice', current_room_id: 'general' },
    secret: { generation: 1 },
  };
}
