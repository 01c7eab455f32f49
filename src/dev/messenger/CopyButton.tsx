import { useState } from 'preact/hooks';
import { clipped, SHOWN_CHARACTERS } from './clipped';

/** A button that copies `text` to the clipboard and says so. */
export function CopyButton({
  text,
  label = 'Copy',
  caption = 'Copy',
}: {
  text: string;
  label?: string;
  caption?: string;
}) {
  const [shown, setShown] = useState(caption);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setShown('Copied'),
      () => setShown('Copy failed: select the text'),
    );
  // What happened is said (a status), and the name keeps the visible text in it.
  return (
    <>
      <button
        type="button"
        class="small"
        data-testid="copy"
        aria-label={shown === caption ? label : `${shown}: ${label}`}
        onClick={copy}
      >
        {shown}
      </button>
      <span class="visually-hidden" role="status">
        {shown === caption ? '' : shown}
      </span>
    </>
  );
}

/**
 * What a JSON box (320 px high) whose text is long enough to scroll needs to be scrolled from the keyboard in every
 * engine (WebKit does not make a scroller a Tab stop of its own): a Tab stop, and a name saying what it holds. Guessed
 * from the text (18 lines, or 1,000 characters, which wrap), not measured: a measure per box would lay the page out
 * for each MCP call's row.
 * @internal
 */
export function scrollBox(text: string, name: string): { tabIndex?: number; role?: 'region'; 'aria-label'?: string } {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines < 18; at = text.indexOf('\n', at + 1)) lines++;
  return lines >= 18 || text.length >= 1000 ? { tabIndex: 0, role: 'region', 'aria-label': name } : {};
}

/**
 * A titled JSON block with a copy button; `testid` names its `<pre>`. It shows the first 10,000 characters (a
 * megabyte in a `<pre>` holds the page as it is laid out); the button copies it whole.
 */
export function JsonBlock({ title, text, testid }: { title: string; text: string; testid: string }) {
  return (
    <div class="json">
      <div class="row">
        <strong class="grow">{title}</strong>
        <CopyButton text={text} label={`Copy ${title.toLowerCase()}`} />
      </div>
      <pre data-testid={testid} {...scrollBox(text, title)}>
        {clipped(text, SHOWN_CHARACTERS)}
      </pre>
    </div>
  );
}
