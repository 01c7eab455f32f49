/**
 * The local platform's size limits, where the platform states none (see docs/decisions.md). A body over its
 * limit is answered 413, a field over its limit 400, both as problem details naming the limit.
 * @internal
 */
export const LIMITS = {
  /** Bytes of a server API request body (a card with a 100,000-character body fits). */
  serverApiBody: 256 * 1024,
  /** Bytes of a control API body (the messenger page's requests). */
  controlBody: 64 * 1024,
  /** Bytes of a token endpoint form. */
  tokenForm: 16 * 1024,
  /** Characters of an id sent by a client (room, app user, mini app, delivery). */
  id: 256,
  /** Characters of a card title / body, actions per card, characters of an action label. */
  cardTitle: 256,
  cardBody: 100_000,
  cardActions: 5,
  actionLabel: 64,
  /** Characters of a deep link (card action or notification). */
  deepLink: 2048,
  /** Characters of a notification title / body. */
  notificationTitle: 256,
  notificationBody: 4096,
  /** Characters of a message a person sends through the app, and of a room name. */
  messageText: 10_000,
  roomName: 100,
} as const;
