import type { Status } from '../../../../shared/api/resources.js';
import { LocalTime } from '../../components/local-time.js';
import { plural } from '../../format/quantities.js';

type SparkplugNode = NonNullable<Status['last_data_transmit'][string]['sparkplug']>;

/** online: born, a host sees its data; waiting: connected, held back by the primary host; offline: no broker. */
const STATE_WORD: Record<SparkplugNode['state'], string> = { born: 'online', waiting_for_host: 'waiting', disconnected: 'offline' };

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
  if (nodes.length === 0) return null;
  return (
    <section className="sparkplug-nodes" aria-labelledby="sparkplug-nodes-title">
      <h3 id="sparkplug-nodes-title">Sparkplug B edge nodes</h3>
      <ul>
        {nodes.map(([transmit, node]) => (
          <li key={transmit} data-sparkplug-node={transmit} data-sparkplug-state={node.state}>
            <strong>
              {node.group_id}/{node.edge_node_id}
            </strong>{' '}
            <span className={`sparkplug-state sparkplug-state-${node.state} ${node.state === 'born' ? 'ok-text' : 'warning-text'}`}>{STATE_WORD[node.state]}</span>
            {' · '}
            <Details node={node} />
            <span className="muted small"> (transmit {transmit})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Details({ node }: { node: SparkplugNode }) {
  const sent = node.born_at ? (
    <>
      NBIRTH sent <LocalTime value={node.born_at} /> (bdSeq {node.bd_seq})
    </>
  ) : (
    'no NBIRTH sent yet'
  );
  const devices = `${plural(node.devices_born, 'device')} born`;
  if (node.state === 'born') {
    return (
      <span data-testid="sparkplug-details">
        {sent}, {devices}
        {node.primary_host_id ? `, primary host ${node.primary_host_id} online` : ''}
      </span>
    );
  }
  if (node.state === 'waiting_for_host') {
    const host = node.host_online === false ? 'offline' : 'no STATE heard yet';
    return (
      <span data-testid="sparkplug-details">
        waiting for primary host {node.primary_host_id} ({host}); records are kept meanwhile. Last: {sent}
      </span>
    );
  }
  return <span data-testid="sparkplug-details">not connected to the broker (a host sees the node dead). Last: {sent}</span>;
}
