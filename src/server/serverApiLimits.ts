import { SERVER_API_FIELD_LIMITS as FIELD_LIMITS } from './serverApiFieldLimits';

/**
 * The most bytes one character of a string can take in a JSON body: a character outside the Basic Multilingual Plane
 * (an emoji) written as two `\uXXXX` escapes, as Python's `json.dumps` and every encoder told to write ASCII do. Raw
 * UTF-8 takes at most 4.
 */
const BYTES_PER_CHARACTER = 12;

/** Room for the JSON around the strings (names, quotes, commas, indentation), far beyond what a card needs. */
const JSON_STRUCTURE_BYTES = 16 * 1024;

/**
 * Bytes of a server API request body: computed from the field bounds, so that the largest body they allow, a card
 * with every field at its bound (two ids, a 256-character title, a 100,000-character body, five actions of a
 * 64-character label and a 2,048-character deep link), fits whatever characters it holds and however a JSON encoder
 * writes them; rounded up to whole MiB (2 MiB). A fixed 256 KiB refused a card of 100,000 emoji that the contract
 * allows. Still bounded, so a request's memory is too.
 */
const SERVER_API_BODY_BYTES = (() => {
  const L = FIELD_LIMITS;
  const characters = 2 * L.id + L.cardTitle + L.cardBody + L.cardActions * (L.actionLabel + L.deepLink);
  const mib = 1024 * 1024;
  return Math.ceil((characters * BYTES_PER_CHARACTER + JSON_STRUCTURE_BYTES) / mib) * mib;
})();

/**
 * The bounds of the server API's fields, where the platform states none ("not shown"): the local platform enforces
 * them (400 naming the field and the bound, 413 for the body) and the published contract states them
 * (docs/decisions.md).
 * @internal
 */
export const SERVER_API_LIMITS = {
  /** Bytes of a server API request body: see {@link SERVER_API_BODY_BYTES}. */
  serverApiBody: SERVER_API_BODY_BYTES,
  /**
   * The deepest a request body may nest arrays and objects. The fields need 3 (a card's action's label is
   * `$.card.actions[0].label`); the bound keeps a body's checks linear in its size whatever it holds, an unknown field
   * too (a text nested 100,000 deep took a minute before).
   */
  bodyDepth: 64,
  ...FIELD_LIMITS,
} as const;
