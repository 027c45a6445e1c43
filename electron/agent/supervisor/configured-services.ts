import type { ComponentType, ServiceStatus } from '../../../shared/api/resources.js';
import type { ComponentRegistry } from '../components/registry.js';
import { SERVICE_PREFIX } from './deploy-plan.js';

/**
 * Service ids and states of a configuration that is not running: `stopped` for component types this
 * build has, `unknown` for those it has not. Reads a raw document defensively.
 */
export function configuredServices(raw: unknown, registry: ComponentRegistry): Record<string, { status: ServiceStatus }> {
  const out: Record<string, { status: ServiceStatus }> = {};
  const doc = (raw ?? {}) as Record<string, unknown>;
  const sections: [string, ComponentType, string, string][] = [
    ['data_transmit', 'Transmit', 'transmit_name', 'transmit_type'],
    ['transforms', 'Transform', 'transform_name', 'transform_type'],
    ['data_receiver', 'Receiver', 'data_receiver_name', 'protocol'],
  ];
  for (const [section, kind, nameKey, typeKey] of sections) {
    const list = doc[section];
    if (!Array.isArray(list)) continue;
    for (const item of list as Record<string, unknown>[]) {
      if (typeof item?.[nameKey] !== 'string') continue;
      out[`${SERVICE_PREFIX[kind]}:${String(item[nameKey])}`] = { status: registry.has(kind, String(item[typeKey])) ? 'stopped' : 'unknown' };
    }
  }
  return out;
}
