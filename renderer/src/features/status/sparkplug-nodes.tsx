import type { Status } from '../../../../shared/api/resources.js';
import { LocalTime } from '../../components/local-time.js';
import { useTranslations } from 'use-intl';

type SparkplugNode = NonNullable<Status['last_data_transmit'][string]['sparkplug']>;


/** The mqtt transmits that are Sparkplug B edge nodes, with their node's birth state. */
export function sparkplugNodes(transmits: Status['last_data_transmit'] | undefined): [string, SparkplugNode][] {
  return Object.entries(transmits ?? {}).flatMap(([name, stats]) => (stats?.sparkplug ? [[name, stats.sparkplug] as [string, SparkplugNode]] : []));
}

/**
 * Below the streams: what a plant's Sparkplug host knows of this agent. Whether the edge node is
 * born (online to the host), when its NBIRTH went out, how many devices (assets) have a DBIRTH, and
 * which primary host it waits for, so an engineer sees why Ignition shows the node stale.
 */
export function SparkplugNodes({ transmits }: { transmits: Status['last_data_transmit'] | undefined }) {
  const nodes = sparkplugNodes(transmits);
  const t = useTranslations('sparkplug');
  if (nodes.length === 0) return null;
  return (
    <section className="sparkplug-nodes" aria-labelledby="sparkplug-nodes-title">
      <h3 id="sparkplug-nodes-title">{t('title')}</h3>
      <ul>
        {nodes.map(([transmit, node]) => (
          <li key={transmit} data-sparkplug-node={transmit} data-sparkplug-state={node.state}>
            <strong>
              {node.group_id}/{node.edge_node_id}
            </strong>{' '}
            <span className={`sparkplug-state sparkplug-state-${node.state} ${node.state === 'born' ? 'ok-text' : 'warning-text'}`}>{/* online: born, a host sees its data; waiting: connected, held back by the primary host; offline: no broker. */}
              {t(`states.${node.state}`)}
            </span>
            {' · '}
            <Details node={node} />
            <span className="muted small">{t('transmit', { name: transmit })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Details({ node }: { node: SparkplugNode }) {
  const t = useTranslations('sparkplug');
  const sent = node.born_at ? <>{t.rich('sent', { time: () => <LocalTime value={node.born_at!} />, seq: node.bd_seq })}</> : t('notSent');
  const devices = t('devices', { count: node.devices_born });
  if (node.state === 'born') {
    return (
      <span data-testid="sparkplug-details">
        {sent}, {devices}
        {node.primary_host_id ? t('primaryOnline', { host: node.primary_host_id }) : ''}
      </span>
    );
  }
  if (node.state === 'waiting_for_host') {
    const host = node.host_online === false ? t('hostOffline') : t('noState');
    return (
      <span data-testid="sparkplug-details">
        {t('waiting', { host: node.primary_host_id ?? '', state: host })}
        {sent}
      </span>
    );
  }
  return (
    <span data-testid="sparkplug-details">
      {t('disconnected')}
      {sent}
    </span>
  );
}
