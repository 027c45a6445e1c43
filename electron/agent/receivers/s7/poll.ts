/**
 * One poll of an s7 receiver's plan over a link: every job in turn, each answer's bytes decoded into
 * the values of the streams it covers. Shared by the receiver and the preview.
 */
import type { z } from 'zod';
import type { S7ReceiverSchema } from '../../../../shared/config/receivers/s7/schema.js';
import { type S7Address, describeArea, formatS7Address, parseS7Address, s7ByteCount } from '../../../../shared/config/receivers/s7/address.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { decodeS7 } from './decode.js';
import { type ByteRange, type PlanItem, type ReadRequest, describeRange, planRanges, planRequests } from './plan.js';
import type { S7Link } from './s7-link.js';
import { itemCodeText } from './s7-frames.js';

export type S7ReceiverConfig = z.infer<typeof S7ReceiverSchema>;

/** The codes that say the address is not readable as configured (rather than a passing fault). */
const NOT_THERE = new Set([0x03, 0x05, 0x0a]);

/** Every configured value with a valid address (the rules refuse the others before the agent sees them). */
export function planItems(config: S7ReceiverConfig): PlanItem[] {
  return config.streams.flatMap((stream, s) =>
    stream.s7_tags.flatMap((tag, v) => {
      const parsed = parseS7Address(tag.address);
      return parsed.address ? [{ stream: s, value: v, address: parsed.address }] : [];
    }),
  );
}

/** The plan of a link's PDU size: its ranges and the jobs that read them. */
export interface S7Plan {
  pduSize: number;
  ranges: ByteRange[];
  requests: ReadRequest[];
}

export function planFor(items: readonly PlanItem[], pduSize: number, single: ReadonlySet<string> = new Set()): S7Plan {
  const merged = planRanges(items.filter((i) => !single.has(itemKey(i))), pduSize);
  const alone = planRanges(items.filter((i) => single.has(itemKey(i))), pduSize, { merge: false });
  const ranges = [...merged, ...alone];
  return { pduSize, ranges, requests: planRequests(ranges, pduSize) };
}

export function itemKey(item: PlanItem): string {
  return `${item.stream}:${item.value}`;
}

/** A value the PLC refused, and why, in words for TIA Portal. */
export interface RefusedValue {
  item: PlanItem;
  message: string;
}

export interface PollOutcome {
  /** Per stream, per configured value: its value, or undefined when it could not be read. */
  values: (FieldValue | undefined)[][];
  /** Per stream: when the last answer with one of its values arrived (ms since the epoch), 0 if none. */
  answeredAt: number[];
  refused: RefusedValue[];
  /** Values read one by one from now on: a merged range of theirs was refused. */
  split: PlanItem[];
}

/** What to change for a refused address, by the PLC's return code. */
export function refusalAdvice(code: number | undefined, target: S7Address): string {
  const address = formatS7Address(target);
  if (code === 0x0a && target.area !== 'DB') return `The PLC has no ${describeArea(target.area, 0)} at ${address}: check the address against the CPU's memory sizes.`;
  if (code === 0x0a)
    return `DB${target.db} does not exist in the PLC, or has optimized block access: check the data block number in TIA Portal (or STEP 7) and that the block is downloaded; in the data block's properties, Attributes, clear "Optimized block access", then compile and download.`;
  if (code === 0x05)
    return `${address} lies beyond the end of the data or memory area, or the block has optimized access (no absolute addresses): in TIA Portal, open the data block's properties, Attributes, and clear "Optimized block access", then compile and download; otherwise check the offset in the block's Offset column.`;
  if (code === 0x03)
    return `The PLC does not allow reading ${address} over PUT/GET: in TIA Portal, open the CPU's properties, Protection & Security, Connection mechanisms, and tick "Permit access with PUT/GET communication from remote partner"; then download the hardware configuration.`;
  return `In TIA Portal, check that "Permit access with PUT/GET communication from remote partner" is ticked for the CPU and that the block has "Optimized block access" off.`;
}

/**
 * Reads the plan once. A refused item leaves its values undefined (reported in `refused`); a merged
 * range refused as not there is read again value by value, so one bad address costs only its own
 * value. A LinkError (no answer, closed, not S7) is thrown.
 */
export async function pollOnce(config: S7ReceiverConfig, link: S7Link, plan: S7Plan): Promise<PollOutcome> {
  const values = config.streams.map((s) => s.s7_tags.map((): FieldValue | undefined => undefined));
  const answeredAt = config.streams.map(() => 0);
  const refused: RefusedValue[] = [];
  const split: PlanItem[] = [];
  // Each range's bytes as its parts come in; a refused part refuses the range.
  const bytes = new Map<ByteRange, Buffer>();
  const refusal = new Map<ByteRange, { code?: number; text: string }>();
  const times = new Map<ByteRange, number>();
  const readAll = async (requests: readonly ReadRequest[]) => {
    for (const request of requests) {
      const answer = await link.read(request);
      request.parts.forEach((part, i) => {
        times.set(part.range, answer.at);
        if (answer.refused !== undefined) return void refusal.set(part.range, { text: answer.refused });
        const item = answer.items[i]!;
        if (item.data === undefined) return void refusal.set(part.range, { code: item.code, text: itemCodeText(item.code) });
        let buffer = bytes.get(part.range);
        if (!buffer) bytes.set(part.range, (buffer = Buffer.alloc(part.range.length)));
        item.data.copy(buffer, part.offset);
      });
    }
  };
  await readAll(plan.requests);
  const retry = plan.ranges.filter((r) => r.items.length > 1 && NOT_THERE.has(refusal.get(r)?.code ?? -1));
  if (retry.length > 0) {
    for (const range of retry) refusal.delete(range);
    const alone = planRanges(retry.flatMap((r) => r.items), plan.pduSize, { merge: false });
    await readAll(planRequests(alone, plan.pduSize));
    split.push(...retry.flatMap((r) => r.items));
    decodeRanges(alone);
  }
  decodeRanges(plan.ranges.filter((r) => !retry.includes(r)));
  return { values, answeredAt, refused, split };

  function decodeRanges(ranges: readonly ByteRange[]) {
    for (const range of ranges) {
      const why = refusal.get(range);
      const buffer = bytes.get(range);
      for (const item of range.items) {
        const tag = config.streams[item.stream]!.s7_tags[item.value]!;
        if (why || !buffer) {
          const address = formatS7Address(item.address);
          const text = why?.text ?? 'no answer';
          refused.push({ item, message: `${address} (${tag.exportname}, ${describeRange(range)}): the PLC answered ${text}. ${refusalAdvice(why?.code, item.address)}` });
          continue;
        }
        const from = item.address.byte - range.start;
        values[item.stream]![item.value] = decodeS7(item.address, buffer.subarray(from, from + s7ByteCount(item.address)));
        answeredAt[item.stream] = Math.max(answeredAt[item.stream]!, times.get(range) ?? 0);
      }
    }
  }
}
