import { useRef } from 'react';
import { TEMPLATE_PROTOCOLS, TRANSMIT_TEMPLATE_TYPES, type TemplateProtocol, type TransmitTemplateType } from '../../../../shared/config/templates.js';
import type { ActionGate } from '../../api/index.js';
import { GatedButton } from '../../components/gated-button.js';

interface ConfigToolbarProps {
  /** The editor is there (inserting and validating need it). */
  ready: boolean;
  /** The token may save: otherwise nothing that would change anything is offered (issue 56). */
  saveGate: ActionGate;
  previewGate: ActionGate;
  previewTitle: string;
  dirty: boolean;
  saving: boolean;
  onInsert: (template: { receiver: TemplateProtocol } | { transmit: TransmitTemplateType }) => void;
  onPreview: () => void;
  onValidate: () => void;
  onHistory: () => void;
  onCopy: () => void;
  onDownload: () => void;
  onUpload: (file: File | undefined) => Promise<void>;
  onDiscard: () => void;
  onSave: () => void;
}

/** The Configuration page's actions: templates, preview, validate, history, copy, files, discard, save. */
export function ConfigToolbar(props: ConfigToolbarProps) {
  const { ready, saveGate, previewGate, dirty, saving } = props;
  const fileInput = useRef<HTMLInputElement | null>(null);
  const mayChange = saveGate.allowed;
  return (
    <div className="toolbar">
      {mayChange && <TemplateButtons ready={ready} onInsert={props.onInsert} />}
      <span className="spacer" />
      <GatedButton gate={previewGate} className="button" onClick={props.onPreview} disabled={!ready} title={props.previewTitle}>
        Preview…
      </GatedButton>
      <button type="button" className="button" onClick={props.onValidate} disabled={!ready}>
        Validate
      </button>
      <button type="button" className="button" onClick={props.onHistory} title={mayChange ? 'Saved versions: who saved them, compare, restore' : 'Saved versions: who saved them, compare'}>
        History…
      </button>
      {mayChange && (
        <GatedButton gate={saveGate} className="button" onClick={props.onCopy} title="Copy receivers and transmits of the saved configuration to other agents of the fleet">
          Copy to…
        </GatedButton>
      )}
      <button type="button" className="button" onClick={props.onDownload} title="The saved configuration as a file, secrets masked">
        Download
      </button>
      {mayChange && (
        <>
          <button type="button" className="button" onClick={() => fileInput.current?.click()} title="Put a configuration file into the editor (nothing is saved until you save)">
            Upload…
          </button>
          <input ref={fileInput} type="file" accept=".json,application/json" hidden aria-label="Upload configuration file" onChange={(event) => void props.onUpload(event.target.files?.[0]).finally(() => (event.target.value = ''))} />
          <button type="button" className="button" onClick={props.onDiscard} disabled={!dirty}>
            Discard changes
          </button>
          <GatedButton gate={saveGate} className="button button-primary" onClick={props.onSave} disabled={!dirty || saving}>
            Save…
          </GatedButton>
        </>
      )}
    </div>
  );
}

function TemplateButtons({ ready, onInsert }: { ready: boolean; onInsert: ConfigToolbarProps['onInsert'] }) {
  return (
    <div className="button-group" role="group" aria-label="Insert template">
      <span className="muted small">Insert template:</span>
      {TEMPLATE_PROTOCOLS.map((protocol) => (
        <button key={protocol} type="button" className="button small" onClick={() => onInsert({ receiver: protocol })} disabled={!ready} title={`Add a ${protocol} receiver to data_receiver`}>
          {protocol}
        </button>
      ))}
      {TRANSMIT_TEMPLATE_TYPES.map((type) => (
        <button key={`transmit-${type}`} type="button" className="button small" onClick={() => onInsert({ transmit: type })} disabled={!ready} title={`Add a ${type} transmit to data_transmit`}>
          {type} transmit
        </button>
      ))}
    </div>
  );
}
