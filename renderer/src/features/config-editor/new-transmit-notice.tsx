import { text } from '../../i18n/language.js';
import type { NewTransmit, StreamChoice } from './new-transmits.js';

interface NewTransmitNoticeProps {
  transmits: readonly NewTransmit[];
  choices: readonly StreamChoice[];
  picked: ReadonlySet<string>;
  onPick: (picked: Set<string>) => void;
}

/**
 * In the save dialog when a transmit is added: it sends records read from now on; what its streams
 * read before is sent to it only by a restream of the streams chosen here (after the save).
 */
export function NewTransmitNotice({ transmits, choices, picked, onPick }: NewTransmitNoticeProps) {
  if (transmits.length === 0) return null;
  const names = transmits.map((t) => `"${t.name}"`).join(', ');
  const toggle = (key: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(key);
    else next.delete(key);
    onPick(next);
  };
  return (
    <section className="notice notice-warning new-transmit" aria-label={text('config.newTransmit')} data-testid="new-transmit-notice">
      <p>
        <strong>{text('config.sendsFromNow', { count: transmits.length, names })}</strong> {text('config.readBefore')}
      </p>
      {choices.length === 0 ? (
        <p className="muted small">{text('config.takesNone')}</p>
      ) : (
        <fieldset className="new-transmit-streams">
          <legend>{text('config.restreamAfter')}</legend>
          {choices.map((choice) => (
            <label key={choice.key} className="check-label">
              <input type="checkbox" checked={picked.has(choice.key)} onChange={(event) => toggle(choice.key, event.target.checked)} />
              {choice.asset}:{choice.stream_type} <span className="muted small">({choice.receiver})</span>
            </label>
          ))}
        </fieldset>
      )}
    </section>
  );
}
