import type { ConfigChanges } from '../../../../shared/api/resources.js';

const GROUPS: { key: keyof ConfigChanges; label: string; tone: string }[] = [
  { key: 'restart', label: 'Restart (configuration changed)', tone: 'warning' },
  { key: 'start', label: 'Start', tone: 'ok' },
  { key: 'stop', label: 'Stop (no longer configured)', tone: 'warning' },
  { key: 'keep', label: 'Keep running untouched', tone: 'muted' },
];

/**
 * What saving does to the running agent, from POST /v1/config/validate: which services restart,
 * start and stop, and which keep running with their connections. Shown before the operator confirms.
 */
export function DeployChanges({ changes }: { changes: ConfigChanges | undefined }) {
  if (!changes) return null;
  const groups = GROUPS.filter((group) => changes[group.key].length > 0);
  return (
    <section className="deploy-changes" aria-label="What saving does to the running agent">
      <h3>What saving does to the running agent</h3>
      {groups.length === 0 ? (
        <p className="muted">No service starts, restarts or stops (the agent does not run, or nothing is configured).</p>
      ) : (
        <dl>
          {groups.map((group) => (
            <div key={group.key} className={`deploy-group deploy-${group.tone}`} data-group={group.key}>
              <dt>
                {group.label} ({changes[group.key].length})
              </dt>
              <dd>
                <ul aria-label={group.label}>
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
