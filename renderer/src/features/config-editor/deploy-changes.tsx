import type { ConfigChanges } from '../../../../shared/api/resources.js';

import { text } from '../../i18n/language.js';

/** The groups in order; their words are the catalog's config.groups.<key>. */
const GROUPS: { key: keyof ConfigChanges; tone: string }[] = [
  { key: 'restart', tone: 'warning' },
  { key: 'start', tone: 'ok' },
  { key: 'stop', tone: 'warning' },
  { key: 'keep', tone: 'muted' },
];

/**
 * What saving does to the running agent, from POST /v1/config/validate: which services restart,
 * start and stop, and which keep running with their connections. Shown before the operator confirms.
 */
export function DeployChanges({ changes }: { changes: ConfigChanges | undefined }) {
  if (!changes) return null;
  const groups = GROUPS.filter((group) => changes[group.key].length > 0);
  return (
    <section className="deploy-changes" aria-label={text('config.deployTitle')}>
      <h3>{text('config.deployTitle')}</h3>
      {groups.length === 0 ? (
        <p className="muted">{text('config.deployNothing')}</p>
      ) : (
        <dl>
          {groups.map((group) => (
            <div key={group.key} className={`deploy-group deploy-${group.tone}`} data-group={group.key}>
              <dt>
                {text(`config.groups.${group.key}`)} ({changes[group.key].length})
              </dt>
              <dd>
                <ul aria-label={text(`config.groups.${group.key}`)}>
                  {changes[group.key].map((id) => (
                    <li key={id}>
                      <code>{id}</code>
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
