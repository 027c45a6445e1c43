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

const toggle = (list: readonly string[], name: string, on: boolean) => (on ? [...list, name] : list.filter((n) => n !== name));

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
        Back to the choice
      </button>
      <button type="button" className="button" onClick={close}>
        Close
      </button>
    </>
  ) : (
    <>
      <button type="button" className="button" onClick={close}>
        Cancel
      </button>
      <button type="button" className="button button-primary" disabled={!ready} onClick={() => setReviewing({ picked, targets: chosen })}>
        Show the changes
      </button>
    </>
  );

  return (
    <DialogFrame open={open} title={`Copy from ${sourceName} to other agents`} wide onEscape={close} footer={footer}>
      {reviewing ? (
        targets
          .filter((target) => reviewing.targets.includes(target.name))
          .map((target) => <CopyTargetSection key={target.name} target={target} source={source} picked={reviewing.picked} theme={theme} />)
      ) : (
        <div className="copy-choice">
          <p className="muted small">
            From the saved configuration of {sourceName}. Each agent you pick reads its own configuration, shows what changes there, checks it with its own validation and is saved on its own.
            Secrets are never copied: type them for each agent.
          </p>
          <NameChoice legend="Receivers" names={blocks.receivers} picked={picked.receivers} onChange={(receivers) => setPicked({ ...picked, receivers })} />
          <NameChoice legend="Transmits" names={blocks.transmits} picked={picked.transmits} onChange={(transmits) => setPicked({ ...picked, transmits })} />
          <fieldset>
            <legend>To agents</legend>
            {targets.length === 0 && <p className="muted">No other agent: add agents on the Agents page first.</p>}
            {targets.map((target) => (
              <label key={target.name} className="check-label">
                <input type="checkbox" checked={chosen.includes(target.name)} disabled={target.unavailable !== undefined} onChange={(event) => setChosen(toggle(chosen, target.name, event.target.checked))} />
                {target.label}
                {target.unavailable && <span className="muted small"> — {target.unavailable}</span>}
              </label>
            ))}
          </fieldset>
        </div>
      )}
    </DialogFrame>
  );
}

function NameChoice({ legend, names, picked, onChange }: { legend: string; names: readonly string[]; picked: readonly string[]; onChange: (next: string[]) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {names.length === 0 && <p className="muted small">None in this configuration.</p>}
      {names.map((name) => (
        <label key={name} className="check-label">
          <input type="checkbox" checked={picked.includes(name)} onChange={(event) => onChange(toggle(picked, name, event.target.checked))} />
          {name}
        </label>
      ))}
    </fieldset>
  );
}
