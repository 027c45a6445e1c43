import type { Status } from '../../../../shared/api/resources.js';
import { serviceLogHref } from '../../app/log-link.js';
import { StateBadge } from '../../components/state-badge.js';
import { plural } from '../../format/quantities.js';
import { parseAgentTime } from '../../format/time.js';

/**
 * Every service with its state. A running service with current error markers is shown degraded
 * (amber) with the reason: `running` alone would be green while nothing is read.
 */
export function ServicesCard({ services }: { services: Status['agent']['services'] }) {
  const entries = Object.entries(services).sort(([a], [b]) => a.localeCompare(b));
  const degraded = entries.filter(([, s]) => s.health === 'degraded').length;
  return (
    <div className="card">
      <h2>
        Services
        {degraded > 0 && <span className="pill pill-warning">{plural(degraded, 'service')} degraded</span>}
      </h2>
      {entries.length === 0 ? (
        <p className="muted">No services: the configuration has no receivers or transmits yet.</p>
      ) : (
        <table className="table compact" aria-label="Services">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Name</th>
              <th scope="col" className="align-right">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([name, service]) => {
              const [kind, ...rest] = name.split(':');
              const shown = service.health === 'degraded' && service.status !== 'stopped' ? 'degraded' : service.status;
              return (
                <tr key={name} data-service={name} data-health={service.health ?? 'ok'}>
                  <td className="muted">{rest.length > 0 ? kind : ''}</td>
                  <td>
                    {rest.length > 0 ? rest.join(':') : name}
                    {service.reason && (
                      <span className="service-reason">
                        {service.reason}
                        {/* Its warnings and errors around the problem's time, in Logs. */}
                        <a className="service-log-link" href={serviceLogHref(name, typeof service.reason_at === 'string' ? service.reason_at : undefined, parseAgentTime)}>
                          Log lines
                        </a>
                      </span>
                    )}
                  </td>
                  <td className="align-right">
                    <StateBadge state={shown} text={shown === 'degraded' ? `${service.status} · degraded` : undefined} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
