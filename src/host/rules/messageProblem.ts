import { deepLinkProblem } from '../../manifest/deepLinkProblem';
import type { OutgoingMessage } from '../../protocol/types';
import { SERVER_API_LIMITS as L } from '../../server/serverApiLimits';

/** Characters of the body of a message a person sends through an app (`svc.message.send`). @internal */
export const MESSAGE_BODY_CHARACTERS = 10_000;

/**
 * Why a message an app asks to send breaks a rule the platform holds it to, as a sentence naming the field and what
 * to send; undefined when it breaks none. The bounds (in characters, Unicode code points) and the deep-link rule of
 * a card are those of a card the app's backend posts through the server API, so a card is refused the same way on
 * either path, and before the person is asked to send it.
 * @internal
 */
export function messageProblem(message: OutgoingMessage, routes: readonly { path: string }[]): string | undefined {
  const text = (field: string, value: string, max: number) => {
    const half = /\p{Cs}/u.exec(value);
    if (half)
      return `${field} holds half of a character (a lone surrogate) at character ${[...value.slice(0, half.index)].length + 1}: send whole characters.`;
    const length = [...value].length;
    return length > max ? `${field} has ${length} characters: send at most ${max}.` : undefined;
  };
  const { card } = message;
  const actions = card?.actions ?? [];
  return (
    text('body', message.body, MESSAGE_BODY_CHARACTERS) ??
    (card && (text('card.title', card.title, L.cardTitle) ?? text('card.body', card.body, L.cardBody))) ??
    (actions.length > L.cardActions
      ? `card.actions has ${actions.length} actions: send at most ${L.cardActions}.`
      : undefined) ??
    actions
      .map(
        (a, i) =>
          text(`card.actions[${i}].label`, a.label, L.actionLabel) ??
          text(`card.actions[${i}].deep_link`, a.deep_link, L.deepLink) ??
          ((bad) => bad && `card.actions[${i}].deep_link ${bad}`)(deepLinkProblem(a.deep_link, routes)),
      )
      .find(Boolean)
  );
}
