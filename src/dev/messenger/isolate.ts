/**
 * A text of the app's (a title, a description) as a part of a sentence of the page's, between Unicode's first strong
 * isolate and its pop (U+2068, U+2069): laid out in its own direction, and the sentence's punctuation around it in the
 * sentence's, as `<bdi>` does for an element (a sheet's title is a string, an accessible name).
 */
export const isolate = (text: string): string => `\u2068${text}\u2069`;
