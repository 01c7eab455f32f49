import { STORAGE_QUOTA } from '../host/rules/createMemoryStorage';
import { MESSAGE_BODY_CHARACTERS } from '../host/rules/messageProblem';
import { SERVER_API_LIMITS } from '../server/serverApiLimits';

/**
 * The local platform's size limits, where the platform states none (see docs/decisions.md). A body over its
 * limit is answered 413, a field over its limit 400, both as problem details naming the limit. The server API's
 * own bounds come from {@link SERVER_API_LIMITS}, which the published contract states too.
 * @internal
 */
export const LIMITS = {
  ...SERVER_API_LIMITS,
  /** Bytes of a control API body (the messenger page's requests). */
  controlBody: 64 * 1024,
  /**
   * Bytes of a `POST /__svc/storage` body: a value the app stores may fill the whole `svc.storage` quota (256 KB),
   * and travels as JSON text inside the request.
   */
  storageBody: STORAGE_QUOTA * 2,
  /**
   * Bytes of one message the page sends on its channel: an MCP call's result travels in one, so this is the largest
   * result svc dev relays to an agent (the page sends an error saying so instead of a larger one).
   */
  channelMessage: 1024 * 1024,
  /** Bytes of a token endpoint form. */
  tokenForm: 16 * 1024,
  /** Characters of a message a person sends through the app, and of a room name. */
  messageText: MESSAGE_BODY_CHARACTERS,
  roomName: 100,
  /**
   * Blocked requests kept and shown (the latest; each request once), so that reports, which anyone on this machine
   * can send, cannot grow the platform or the page without end.
   */
  blockedRequests: 100,
  /**
   * Rows the messenger's call log keeps (the latest, with a count of the earlier ones): an agent calling all day
   * would otherwise grow the page, and slow each call that renders a row, without end.
   */
  callLogRows: 500,
  /**
   * Finished webhook deliveries (delivered or failed) a start keeps from the state file, the latest; every pending
   * one is kept, to be sent again. Each holds its payload and every attempt, so a backend often down would
   * otherwise grow the state, and the time each change takes, without end.
   */
  finishedDeliveries: 500,
  /**
   * Webhook attempts in flight to the backend at once; the others wait their turn in the order they became due. After
   * an outage, the deliveries that waited would otherwise all arrive at once, each on a socket of its own (an outside
   * soak check saw 2,000 arrive in 7 s over 270 sockets, a quarter of them after a later one).
   */
  webhookAttemptsInFlight: 8,
  /** Deliveries the messenger's webhook inspector draws, the latest, with a count of the earlier ones. */
  deliveriesShown: 200,
  /**
   * Entries of a room's timeline the messenger draws at first, the latest; a button draws as many again. A backend
   * posting a card every few seconds all day would otherwise grow the page without end (an outside soak saw 3,000
   * elements after 36 minutes, and a reload take 2.6 s).
   */
  timelineShown: 200,
} as const;
