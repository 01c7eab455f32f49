import { deepLinkProblem } from '../../manifest/deepLinkProblem';
import { loneSurrogate } from '../../manifest/helpers';
import type { OutgoingMessage } from '../../protocol/types';
import { SERVER_API_FIELD_LIMITS as L } from '../../server/serverApiFieldLimits';

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
    const half = loneSurrogate(value);
    if (half)
      return `${field} holds half of a character (a lone surrogate) at character ${half.at}: send whole characters.`;
    const length = [...value].length;
    return length > max ? `${field} has ${length} characters: send at most ${max}.` : undefined;
  };
  const { card } = message;
  const actions = card?.actions ?? [];
  const whole =
    text('body', message.body, MESSAGE_BODY_CHARACTERS) ??
    (card && (text('card.title', card.title, L.cardTitle) ?? text('card.body', card.body, L.cardBody)));
  if (whole) return whole;
  if (actions.length > L.cardActions)
    return `card.actions has ${actions.length} actions: send at most ${L.cardActions}.`;
  for (const [i, action] of actions.entries()) {
    const field = `card.actions[${i}]`;
    const bounds =
      text(`${field}.label`, action.label, L.actionLabel) ?? text(`${field}.deep_link`, action.deep_link, L.deepLink);
    if (bounds) return bounds;
    const link = deepLinkProblem(action.deep_link, routes);
    if (link) return `${field}.deep_link ${link}`;
  }
  return undefined;
}
