/**
 * One poll of a modbus receiver's plan over a link: every request in turn, each answer decoded into
 * the values of the streams it covers. Shared by the receiver and the preview.
 */
import type { z } from 'zod';
import type { ModbusReceiverSchema } from '../../../../shared/config/receivers/modbus/schema.js';
import { registerCount } from '../../../../shared/config/receivers/modbus/rules.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { decodeRegisters } from './decode.js';
import { type ModbusLink, type ReadAnswer, exceptionName } from './modbus-link.js';
import { type PlanItem, type ReadRequest, describeRequest, planReads } from './plan.js';

export type ModbusReceiverConfig = z.infer<typeof ModbusReceiverSchema>;

/** Exception 2: the request reaches an address the device does not have. */
const ILLEGAL_DATA_ADDRESS = 2;

/** Every configured value of the receiver as the planner sees it. */
export function planItems(config: ModbusReceiverConfig): PlanItem[] {
  return config.streams.flatMap((stream, s) =>
    stream.modbus_registers.map((register, v) => ({ stream: s, value: v, unit: stream.unit_id, table: register.table, address: register.address, count: registerCount(register) })),
  );
}

/** An exception answer, and the values of the streams it left without a value. */
export interface RefusedValue {
  item: PlanItem;
  /** "unit 1, holding register 500 (temp): exception 2 (illegal data address)". */
  message: string;
}

export interface PollOutcome {
  /** Per stream, per configured value: its value, or undefined when it could not be read. */
  values: (FieldValue | undefined)[][];
  /** Per stream: when the last answer with one of its values arrived (ms since the epoch), 0 if none. */
  answeredAt: number[];
  refused: RefusedValue[];
  /** The plan for the next polls when a merged request was refused for an address and was split. */
  replanned: ReadRequest[] | undefined;
}

/**
 * Reads the plan once. An exception answer leaves its values undefined (and is reported in
 * `refused`); a merged request refused as an illegal address is read again value by value, so one
 * bad address costs only its own value. A LinkError (no answer, closed, not Modbus) is thrown.
 */
export async function pollOnce(config: ModbusReceiverConfig, link: ModbusLink, plan: readonly ReadRequest[]): Promise<PollOutcome> {
  const values = config.streams.map((s) => s.modbus_registers.map((): FieldValue | undefined => undefined));
  const answeredAt = config.streams.map(() => 0);
  const refused: RefusedValue[] = [];
  let replanned: ReadRequest[] | undefined;
  const apply = (request: ReadRequest, answer: ReadAnswer) => {
    if (answer.exception !== undefined) {
      for (const item of request.items) {
        const register = config.streams[item.stream]!.modbus_registers[item.value]!;
        refused.push({ item, message: `${describeRequest({ ...item })} (${register.exportname}): the device answered ${exceptionName(answer.exception)}.` });
      }
      return;
    }
    for (const item of request.items) {
      const register = config.streams[item.stream]!.modbus_registers[item.value]!;
      const from = item.address - request.address;
      values[item.stream]![item.value] = answer.bits
        ? answer.bits[from]!
        : decodeRegisters(register, answer.words.slice(from, from + item.count));
      answeredAt[item.stream] = Math.max(answeredAt[item.stream]!, answer.at);
    }
  };
  for (const request of plan) {
    const answer = await link.read(request);
    if (answer.exception === ILLEGAL_DATA_ADDRESS && request.items.length > 1) {
      const single = planReads(request.items, { merge: false });
      for (const part of single) apply(part, await link.read(part));
      replanned = [...(replanned ?? plan).filter((r) => r !== request), ...single];
      continue;
    }
    apply(request, answer);
  }
  return { values, answeredAt, refused, replanned };
}
