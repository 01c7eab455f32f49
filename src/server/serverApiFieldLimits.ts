/**
 * The bounds of the server API's fields, in characters (Unicode code points), and the actions of a card. In a file of
 * their own: the host's rules check a message against them, and need none of the body's size.
 * @internal
 */
export const SERVER_API_FIELD_LIMITS = {
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
