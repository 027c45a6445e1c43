import { useTranslations } from 'use-intl';
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
  const t = useTranslations('config');
  return (
    <div className="toolbar">
      {mayChange && <TemplateButtons ready={ready} onInsert={props.onInsert} />}
      <span className="spacer" />
      <GatedButton gate={previewGate} className="button" onClick={props.onPreview} disabled={!ready} title={props.previewTitle}>
        {t('preview')}
      </GatedButton>
      <button type="button" className="button" onClick={props.onValidate} disabled={!ready}>
        {t('validate')}
      </button>
      <button type="button" className="button" onClick={props.onHistory} title={mayChange ? t('historyTitleAdmin') : t('historyTitle')}>
        {t('history')}
      </button>
      {mayChange && (
        <GatedButton gate={saveGate} className="button" onClick={props.onCopy} title={t('copyTitle')}>
          {t('copy')}
        </GatedButton>
      )}
      <button type="button" className="button" onClick={props.onDownload} title={t('downloadTitle')}>
        {t('download')}
      </button>
      {mayChange && (
        <>
          <button type="button" className="button" onClick={() => fileInput.current?.click()} title={t('uploadTitle')}>
            {t('upload')}
          </button>
          <input ref={fileInput} type="file" accept=".json,application/json" hidden aria-label={t('uploadLabel')} onChange={(event) => void props.onUpload(event.target.files?.[0]).finally(() => (event.target.value = ''))} />
          <button type="button" className="button" onClick={props.onDiscard} disabled={!dirty}>
            {t('discard')}
          </button>
          <GatedButton gate={saveGate} className="button button-primary" onClick={props.onSave} disabled={!dirty || saving}>
            {t('save')}
          </GatedButton>
        </>
      )}
    </div>
  );
}

function TemplateButtons({ ready, onInsert }: { ready: boolean; onInsert: ConfigToolbarProps['onInsert'] }) {
  const t = useTranslations('config');
  return (
    <div className="button-group" role="group" aria-label={t('insertTemplate')}>
      <span className="muted small">{t('insertTemplateColon')}</span>
      {TEMPLATE_PROTOCOLS.map((protocol) => (
        <button key={protocol} type="button" className="button small" onClick={() => onInsert({ receiver: protocol })} disabled={!ready} title={t('addReceiver', { protocol })}>
          {protocol}
        </button>
      ))}
      {TRANSMIT_TEMPLATE_TYPES.map((type) => (
        <button key={`transmit-${type}`} type="button" className="button small" onClick={() => onInsert({ transmit: type })} disabled={!ready} title={t('addTransmit', { type })}>
          {t('transmitButton', { type })}
        </button>
      ))}
    </div>
  );
}
