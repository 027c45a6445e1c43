import { text } from '../../i18n/language.js';
import { Marked, type Tokens } from 'marked';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { HELP_DOCS, docTitle, type HelpDoc } from './help-docs.js';
import { docLink, helpTarget, slug, withoutTestPaths } from './help-links.js';
import './help-page.css';

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Markdown of our own documents to HTML: headings with ids, links that stay in the console, no images. */
export function render(doc: HelpDoc): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        return `<h${depth} id="${escape(slug(text))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, tokens }: Tokens.Link) {
        const label = this.parser.parseInline(tokens);
        const target = docLink(href, HELP_DOCS, doc.id);
        if (!target) return `<span class="help-file" title="${escape(href)}">${label}</span>`;
        const external = /^https?:/.test(target);
        return `<a href="${escape(target)}"${external ? ' target="_blank" rel="noreferrer"' : ''}>${label}</a>`;
      },
      // The documents name each other as code (`docs/fleet.md`): such a name opens that document here.
      codespan({ text }: Tokens.Codespan) {
        const target = /^[\w./-]+\.md(#[\w-]+)?$/.test(text) ? docLink(text, HELP_DOCS, doc.id) : undefined;
        return target ? `<a href="${escape(target)}"><code>${text}</code></a>` : `<code>${text}</code>`;
      },
      // Screenshots live beside the repository's README, not in the console: their caption stays.
      image({ text }: Tokens.Image) {
        return `<span class="muted">[${escape(text)}]</span>`;
      },
    },
  });
  // Help is for people running the agent: the test files that prove a statement are the developers' (issue 56).
  return marked.parse(withoutTestPaths(doc.text), { async: false });
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The documentation, bundled: the page a help link of another page opens (#/help/<doc>/<section>). */
export function HelpPage() {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const { doc: id, section } = helpTarget(hash);
  const doc = HELP_DOCS.find((d) => d.id === id) ?? HELP_DOCS[0]!;
  const html = useMemo(() => render(doc), [doc]);
  const article = useRef<HTMLElement>(null);

  useEffect(() => {
    const target = section ? article.current?.querySelector(`[id="${CSS.escape(section)}"]`) : null;
    if (target) target.scrollIntoView({ block: 'start' });
    else article.current?.scrollTo?.({ top: 0 });
  }, [doc, section]);

  return (
    <section className="page help-page" aria-labelledby="help-title">
      <div className="page-head">
        <h1 id="help-title">{text('help.label')}</h1>
        <span className="muted small">
          {docTitle(doc)} · <span className="mono">{doc.file}</span>
          {text('help.bundled')}
        </span>
      </div>
      <div className="help-layout">
        <nav aria-label={text('help.documents')} className="help-nav">
          <ul>
            {HELP_DOCS.map((d) => (
              <li key={d.id}>
                <a href={`#/help/${d.id}`} aria-current={d.id === doc.id ? 'page' : undefined}>
                  {docTitle(d)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {/* Our own documents, rendered from markdown bundled at build time: no outside text. */}
        <article ref={article} className="card help-doc" data-doc={doc.id} dangerouslySetInnerHTML={{ __html: html }} />
      </div>
    </section>
  );
}
