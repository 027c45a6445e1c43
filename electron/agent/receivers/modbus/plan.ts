/**
 * The read plan of a modbus receiver: which requests one poll sends. Values of one unit and table
 * that lie close together are read by one request (at most 125 registers or 2,000 bits, the
 * protocol's limits for functions 1–4), so a device is asked a few times per poll, not once per value.
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import type { ModbusTable } from '../../../../shared/config/receivers/modbus/schema.js';
import { isBitTable } from '../../../../shared/config/receivers/modbus/rules.js';

export const MAX_REGISTERS_PER_REQUEST = 125;
export const MAX_BITS_PER_REQUEST = 2000;
/** Unused registers (bits) a request may span between two values rather than becoming two requests. */
export const MAX_REGISTER_GAP = 8;
export const MAX_BIT_GAP = 64;

/** One configured value: where it is and how many registers (bits) it takes. */
export interface PlanItem {
  /** Index of the stream, and of the value in the stream's modbus_registers. */
  stream: number;
  value: number;
  unit: number;
  table: ModbusTable;
  address: number;
  count: number;
}

/** One read request: a unit's table from `address`, `count` registers (bits), and the values in it. */
export interface ReadRequest {
  unit: number;
  table: ModbusTable;
  address: number;
  count: number;
  items: PlanItem[];
}

/**
 * Requests covering every item, grouped by unit and table in address order. `merge: false` gives
 * one request per item (the fallback once a merged request was refused as an illegal address).
 */
export function planReads(items: readonly PlanItem[], options: { merge?: boolean } = {}): ReadRequest[] {
  const merge = options.merge ?? true;
  const groups = new Map<string, PlanItem[]>();
  for (const item of items) {
    const key = `${item.unit}:${item.table}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const out: ReadRequest[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => a.address - b.address || b.count - a.count);
    const bits = isBitTable(group[0]!.table);
    const limit = bits ? MAX_BITS_PER_REQUEST : MAX_REGISTERS_PER_REQUEST;
    const gap = bits ? MAX_BIT_GAP : MAX_REGISTER_GAP;
    let current: ReadRequest | undefined;
    for (const item of group) {
      const end = item.address + item.count;
      const currentEnd = current ? current.address + current.count : 0;
      if (current && merge && item.address - currentEnd <= gap && Math.max(end, currentEnd) - current.address <= limit) {
        current.count = Math.max(end, currentEnd) - current.address;
        current.items.push(item);
      } else {
        current = { unit: item.unit, table: item.table, address: item.address, count: item.count, items: [item] };
        out.push(current);
      }
    }
  }
  return out;
}

const TABLE_NAMES: Record<ModbusTable, [string, string]> = {
  holding: ['holding register', 'holding registers'],
  input: ['input register', 'input registers'],
  coil: ['coil', 'coils'],
  discrete: ['discrete input', 'discrete inputs'],
};

/**
 * "unit 1, holding registers 0–23" (the preview's plan and the markers name requests so). The table
 * names are Modbus's own terms, which German plants use as they are (Holding-Register, Coils).
 */
export function describeRequest(request: Pick<ReadRequest, 'unit' | 'table' | 'address' | 'count'>): string {
  return requestSaid(request).text;
}

/** describeRequest with its code, for messages the console translates. */
export function requestSaid(request: Pick<ReadRequest, 'unit' | 'table' | 'address' | 'count'>): AgentMessage {
  const [one, many] = TABLE_NAMES[request.table];
  const { unit, address } = request;
  return request.count === 1
    ? say('modbus.request_one', 'unit {unit}, {table} {address}', { unit, table: one, address })
    : say('modbus.request_many', 'unit {unit}, {table} {address}–{last}', { unit, table: many, address, last: address + request.count - 1 });
}
