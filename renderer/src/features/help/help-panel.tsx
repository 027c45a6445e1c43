import { text } from '../../i18n/language.js';
import { type MouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import { HELP_DOCS, docTitle } from './help-docs.js';
import { helpTarget } from './help-links.js';
import { render } from './help-page.js';
import './help-page.css';

interface HelpPanelProps {
  /** `#/help/<doc>[/<section>]`: what the page asks for (helpHref of the page). */
  href: string;
  onClose: () => void;
}

/**
 * Help beside the page (issue 56, docs/decisions/0070): the page stays where it is, with its unsaved
 * text, and the session is the same; links between documents change the panel, not the address.
 */
export function HelpPanel({ href, onClose }: HelpPanelProps) {
  const [target, setTarget] = useState(() => helpTarget(href));
  useEffect(() => setTarget(helpTarget(href)), [href]);
  const doc = HELP_DOCS.find((d) => d.id === target.doc) ?? HELP_DOCS[0]!;
  const html = useMemo(() => render(doc), [doc]);
  const article = useRef<HTMLElement>(null);

  useEffect(() => {
    const found = target.section ? article.current?.querySelector(`[id="${CSS.escape(target.section)}"]`) : null;
    if (found) found.scrollIntoView({ block: 'start' });
    else article.current?.scrollTo?.({ top: 0 });
  }, [doc, target.section]);

  // A link to another document (#/help/…) opens it here: following it would leave the page.
  const stayInPanel = (event: MouseEvent<HTMLElement>) => {
    const link = (event.target as HTMLElement).closest('a');
    const next = link?.getAttribute('href');
    if (!next?.startsWith('#/help/')) return;
    event.preventDefault();
    setTarget(helpTarget(next));
  };

  return (
    <aside className="help-panel" aria-label={text('help.label')}>
      <div className="help-panel-head">
        <label className="field">
          <span className="muted small">{text('help.colon')}</span>
          <select value={doc.id} onChange={(event) => setTarget({ doc: event.target.value, section: undefined })} aria-label={text('help.document')}>
            {HELP_DOCS.map((d) => (
              <option key={d.id} value={d.id}>
                {docTitle(d)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button small" onClick={onClose}>
          {text('help.close')}
        </button>
      </div>
      {/* Our own documents, rendered from markdown bundled at build time: no outside text. */}
      <article ref={article} className="help-doc help-panel-doc" data-doc={doc.id} onClick={stayInPanel} dangerouslySetInnerHTML={{ __html: html }} />
    </aside>
  );
}
