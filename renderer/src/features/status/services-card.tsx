import { useTranslations } from 'use-intl';
import type { Status } from '../../../../shared/api/resources.js';
import { agentTextOf } from '../../i18n/agent-text.js';
import { serviceLogHref } from '../../app/log-link.js';
import { StateBadge, stateWord } from '../../components/state-badge.js';
import { parseAgentTime } from '../../format/time.js';

/**
 * Every service with its state. A running service with current error markers is shown degraded
 * (amber) with the reason: `running` alone would be green while nothing is read.
 */
export function ServicesCard({ services }: { services: Status['agent']['services'] }) {
  const entries = Object.entries(services).sort(([a], [b]) => a.localeCompare(b));
  const degraded = entries.filter(([, s]) => s.health === 'degraded').length;
  const t = useTranslations('services');
  return (
    <div className="card">
      <h2>
        {t('title')}
        {degraded > 0 && <span className="pill pill-warning">{t('degraded', { count: degraded })}</span>}
      </h2>
      {entries.length === 0 ? (
        <p className="muted">{t('none')}</p>
      ) : (
        <table className="table compact" aria-label={t('title')}>
          <thead>
            <tr>
              <th scope="col">{t('kind')}</th>
              <th scope="col">{t('name')}</th>
              <th scope="col" className="align-right">
                {t('state')}
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([name, service]) => {
              const [kind, ...rest] = name.split(':');
              const shown = service.health === 'degraded' && service.status !== 'stopped' ? 'degraded' : service.status;
              return (
                <tr key={name} data-service={name} data-health={service.health ?? 'ok'}>
                  <td className="muted">{rest.length > 0 ? (kind === 'receiver' || kind === 'transmit' ? t(`kinds.${kind}`) : kind) : ''}</td>
                  <td>
                    {rest.length > 0 ? rest.join(':') : name}
                    {service.reason && (
                      <span className="service-reason">
                        {agentTextOf(service, service.reason, 'reason_')}
                        {/* Its warnings and errors around the problem's time, in Logs. */}
                        <a className="service-log-link" href={serviceLogHref(name, typeof service.reason_at === 'string' ? service.reason_at : undefined, parseAgentTime)}>
                          {t('logLines')}
                        </a>
                      </span>
                    )}
                  </td>
                  <td className="align-right">
                    <StateBadge state={shown} text={shown === 'degraded' ? t('degradedState', { state: stateWord(service.status) }) : undefined} />
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
