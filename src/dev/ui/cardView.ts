import type { DevCard } from '../protocol';
import { h } from './dom';

/**
 * A card as the messenger shows it: who posted it, its title, body and action buttons (each opens its deep link in
 * the app). The same view serves the timeline and the send-confirmation sheet (`open` absent: buttons inert).
 */
export function cardView(
  card: DevCard,
  byline: string,
  open: ((deepLink: string) => void) | undefined,
  testid: string,
) {
  return h(
    'article',
    { class: 'msg card', 'data-testid': testid },
    byline ? h('small', {}, byline) : null,
    h('strong', {}, card.title),
    h('div', {}, card.body),
    card.actions.length
      ? h(
          'div',
          { class: 'row' },
          ...card.actions.map((a) =>
            h(
              'button',
              {
                'data-testid': 'card-action',
                title: a.deep_link,
                disabled: !open,
                onclick: () => open?.(a.deep_link),
              },
              a.label,
            ),
          ),
        )
      : null,
  );
}
