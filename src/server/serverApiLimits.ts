/**
 * The bounds of the server API's fields, where the platform states none ("not shown"): the local platform enforces
 * them (400 naming the field and the bound, 413 for the body) and the published contract states them
 * (docs/decisions.md).
 * @internal
 */
export const SERVER_API_LIMITS = {
  /** Bytes of a server API request body (a card with a 100,000-character body fits). */
  serverApiBody: 256 * 1024,
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
} as const;
