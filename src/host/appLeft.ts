/**
 * The message of an invocation refused because the app left (a reload or a navigation of its own) and no page of it
 * came back to announce its handlers: the app never received the invocation, so calling again is safe. The dev
 * messenger tells it apart from a call the app was running when it left.
 * @internal
 */
export const APP_LEFT = 'the app left (reload or navigation) and did not come back.';
