import { text } from '../../i18n/language.js';
import { useMemo, useState } from 'react';
import type { PickedBlocks } from '../../../../shared/config/copy-blocks.js';
import { useFleet, useManagedAgent } from '../../api/index.js';
import { useTargetAgentName } from '../../app/managed-agent-badge.js';
import { DialogFrame } from '../../components/dialog-frame.js';
import { CopyTargetSection } from './copy-target.js';
import { copyTargets, pickable } from './copy-targets.js';
import './copy-dialog.css';

interface CopyDialogProps {
  open: boolean;
  /** The saved configuration of the agent being managed (secrets masked): the source. */
  source: Record<string, unknown>;
  theme: string;
  onClose: () => void;
}

const toggle = (list: readonly string[], name: string, on: boolean) =>
  on ? [...list, name] : list.filter((n) => n !== name);

/**
 * "Copy this source to…" (issue 34, docs/fleet.md): pick receivers and transmits of the saved
 * configuration, pick the agents of the fleet they go to, then review each target on its own: the
 * merge as a diff, its secrets typed, its own validation, its own save.
 */
export function CopyDialog({ open, source, theme, onClose }: CopyDialogProps) {
  const sourceName = useTargetAgentName();
  const { agent } = useManagedAgent();
  const fleet = useFleet();
  const targets = useMemo(() => copyTargets(fleet.data?.agents ?? [], agent), [fleet.data, agent]);
  const blocks = useMemo(() => pickable(source), [source]);
  const [picked, setPicked] = useState<PickedBlocks>({ receivers: [], transmits: [] });
  const [chosen, setChosen] = useState<string[]>([]);
  const [reviewing, setReviewing] = useState<{ picked: PickedBlocks; targets: string[] } | null>(null);

  const close = () => {
    setReviewing(null);
    setPicked({ receivers: [], transmits: [] });
    setChosen([]);
    onClose();
  };
  const ready = picked.receivers.length + picked.transmits.length > 0 && chosen.length > 0;
  const footer = reviewing ? (
    <>
      <button type="button" className="button" onClick={() => setReviewing(null)}>
        {text('copy.back')}
      </button>
      <button type="button" className="button" onClick={close}>
        {text('common.close')}
      </button>
    </>
  ) : (
    <>
      <button type="button" className="button" onClick={close}>
        {text('common.cancel')}
      </button>
      <button
        type="button"
        className="button button-primary"
        disabled={!ready}
        onClick={() => setReviewing({ picked, targets: chosen })}
      >
        {text('copy.show')}
      </button>
    </>
  );

  return (
    <DialogFrame open={open} title={text('copy.title', { source: sourceName })} wide onEscape={close} footer={footer}>
      {reviewing ? (
        targets
          .filter((target) => reviewing.targets.includes(target.name))
          .map((target) => (
            <CopyTargetSection
              key={target.name}
              target={target}
              source={source}
              picked={reviewing.picked}
              theme={theme}
            />
          ))
      ) : (
        <div className="copy-choice">
          <p className="muted small">{text('copy.intro', { source: sourceName })}</p>
          <Choice
            legend={text('copy.receivers')}
            options={blocks.receivers.map((name) => ({ name, label: name }))}
            empty={text('copy.noneHere')}
            picked={picked.receivers}
            onChange={(receivers) => setPicked({ ...picked, receivers })}
          />
          <Choice
            legend={text('copy.transmits')}
            options={blocks.transmits.map((name) => ({ name, label: name }))}
            empty={text('copy.noneHere')}
            picked={picked.transmits}
            onChange={(transmits) => setPicked({ ...picked, transmits })}
          />
          <Choice
            legend={text('copy.toAgents')}
            options={targets.map(({ name, label, unavailable }) => ({ name, label, unavailable }))}
            empty={text('copy.noAgents')}
            picked={chosen}
            onChange={setChosen}
          />
        </div>
      )}
    </DialogFrame>
  );
}

interface ChoiceProps {
  legend: string;
  /** `unavailable`: why it cannot be picked now (shown beside it). */
  options: readonly { name: string; label: string; unavailable?: string | undefined }[];
  empty: string;
  picked: readonly string[];
  onChange: (next: string[]) => void;
}

function Choice({ legend, options, empty, picked, onChange }: ChoiceProps) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.length === 0 && <p className="muted small">{empty}</p>}
      {options.map(({ name, label, unavailable }) => (
        <label key={name} className="check-label">
          <input
            type="checkbox"
            checked={picked.includes(name)}
            disabled={unavailable !== undefined}
            onChange={(event) => onChange(toggle(picked, name, event.target.checked))}
          />
          {label}
          {unavailable && <span className="muted small"> — {unavailable}</span>}
        </label>
      ))}
    </fieldset>
  );
}
