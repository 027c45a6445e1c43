/**
 * The read plan of an s7 receiver: which requests one poll sends (docs/s7.md, "How the PLC is read").
 * Values of one area (one data block) that lie close together become one byte range; ranges become
 * the items of a "read var" job, packed into as few jobs as the negotiated PDU size allows: the
 * request (12 bytes per item) and the answer (4 bytes per item, its data, padding) both must fit.
 * A range longer than one answer can carry is read in parts.
 */
import type { S7Address, S7Area } from '../../../../shared/config/receivers/s7/address.js';
import { describeArea, s7ByteCount } from '../../../../shared/config/receivers/s7/address.js';

/** Unused bytes a range may span between two values rather than becoming two items. */
export const MAX_BYTE_GAP = 16;
/** Items in one job: the limit of S7-300/400 CPUs (and of Snap7), whatever the PDU would allow. */
export const MAX_ITEMS_PER_REQUEST = 20;
/** The S7 header of a job (10 bytes) plus function and item count. */
const REQUEST_OVERHEAD = 12;
const REQUEST_ITEM_BYTES = 12;
/** The S7 header of an answer (12 bytes, with the error class and code) plus function and item count. */
const ANSWER_OVERHEAD = 14;
const ANSWER_ITEM_HEADER = 4;

/** One configured value: where it is. */
export interface PlanItem {
  /** Index of the stream, and of the value in the stream's s7_tags. */
  stream: number;
  value: number;
  address: S7Address;
}

/** Consecutive bytes of one area read for one or more values. */
export interface ByteRange {
  area: S7Area;
  db: number;
  start: number;
  length: number;
  items: PlanItem[];
}

/** One item of a job: `length` bytes of a range from `offset` (within the range). */
export interface RequestPart {
  range: ByteRange;
  offset: number;
  length: number;
}

/** One "read var" job. */
export interface ReadRequest {
  parts: RequestPart[];
}

/** The most data bytes one answer item can carry at this PDU size. */
export function maxPartBytes(pduSize: number): number {
  return Math.max(1, pduSize - ANSWER_OVERHEAD - ANSWER_ITEM_HEADER);
}

/** Ranges covering every item, by area in address order. `merge: false`: a range per item (after a merged range was refused). */
export function planRanges(items: readonly PlanItem[], pduSize: number, options: { merge?: boolean } = {}): ByteRange[] {
  const merge = options.merge ?? true;
  const limit = maxPartBytes(pduSize);
  const groups = new Map<string, PlanItem[]>();
  for (const item of items) {
    const key = `${item.address.area}:${item.address.db}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const out: ByteRange[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => a.address.byte - b.address.byte);
    let current: ByteRange | undefined;
    for (const item of group) {
      const start = item.address.byte;
      const end = start + s7ByteCount(item.address);
      const currentEnd = current ? current.start + current.length : 0;
      if (current && merge && start - currentEnd <= MAX_BYTE_GAP && Math.max(end, currentEnd) - current.start <= limit) {
        current.length = Math.max(end, currentEnd) - current.start;
        current.items.push(item);
      } else {
        current = { area: item.address.area, db: item.address.db, start, length: end - start, items: [item] };
        out.push(current);
      }
    }
  }
  return out;
}

/** Jobs reading every range, each within the PDU size both ways, at most MAX_ITEMS_PER_REQUEST items. */
export function planRequests(ranges: readonly ByteRange[], pduSize: number): ReadRequest[] {
  const limit = maxPartBytes(pduSize);
  const maxItems = Math.max(1, Math.min(MAX_ITEMS_PER_REQUEST, Math.floor((pduSize - REQUEST_OVERHEAD) / REQUEST_ITEM_BYTES)));
  const parts: RequestPart[] = [];
  for (const range of ranges) for (let offset = 0; offset < range.length; offset += limit) parts.push({ range, offset, length: Math.min(limit, range.length - offset) });
  // First fit, largest first: few jobs, and each answer within the PDU.
  const sorted = [...parts].sort((a, b) => b.length - a.length);
  const jobs: { parts: RequestPart[]; answerBytes: number }[] = [];
  for (const part of sorted) {
    const cost = ANSWER_ITEM_HEADER + part.length + (part.length % 2);
    const job = jobs.find((j) => j.parts.length < maxItems && j.answerBytes + cost <= pduSize);
    if (job) {
      job.parts.push(part);
      job.answerBytes += cost;
    } else jobs.push({ parts: [part], answerBytes: ANSWER_OVERHEAD + cost });
  }
  return jobs.map((j) => ({ parts: j.parts }));
}

/** "DB1, bytes 0–15" (the preview and the markers name ranges so). */
export function describeRange(range: Pick<ByteRange, 'area' | 'db' | 'start' | 'length'>): string {
  const where = describeArea(range.area, range.db);
  return range.length === 1 ? `${where}, byte ${range.start}` : `${where}, bytes ${range.start}–${range.start + range.length - 1}`;
}
