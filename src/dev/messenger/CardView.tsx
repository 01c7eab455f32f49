import { useId } from 'preact/hooks';
import type { DevCard } from '../devContract';

/**
 * A card as the messenger shows it: who posted it, its title, body and action buttons (each opens its deep link in
 * the app). The same view serves the timeline and the send-confirmation sheet (`open` absent: buttons inert).
 */
export function CardView({
  card,
  byline,
  open,
  testid,
}: {
  card: DevCard;
  byline: string;
  open?: ((deepLink: string) => void) | undefined;
  testid: string;
}) {
  // Each button is described by the card's title: several cards' "Open" are told apart (a11y47).
  const titleId = useId();
  return (
    <article class="msg card" data-testid={testid}>
      {byline ? <small>{byline}</small> : null}
      {/* The app's words, in any language: each laid out in its own direction. */}
      <strong dir="auto" id={titleId}>
        {card.title}
      </strong>
      <div dir="auto">{card.body}</div>
      {card.actions.length ? (
        <div class="row">
          {card.actions.map((a) => (
            <button
              type="button"
              key={`${a.label} ${a.deep_link}`}
              data-testid="card-action"
              dir="auto"
              aria-describedby={titleId}
              title={a.deep_link}
              disabled={!open}
              onClick={() => open?.(a.deep_link)}
            >
              {a.label}
            </button>
          ))}
        </div>
      ) : null}
    </article>
  );
}
