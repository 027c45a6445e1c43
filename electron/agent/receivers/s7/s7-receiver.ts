import type { ComponentContext } from '../../components/contract.js';
import { DeviceReceiver } from '../device-receiver.js';
import type { PlanItem } from './plan.js';
import { type S7Plan, type S7ReceiverConfig, itemKey, planFor, planItems, pollOnce } from './poll.js';
import { S7Link } from './s7-link.js';

export type { S7ReceiverConfig };

/** Values the PLC refused (a missing or optimized block, no PUT/GET access): the stream goes on with the others. */
export const REFUSED = 's7_refused';

/**
 * Reads a Siemens S7 PLC (docs/s7.md): every poll_interval the read plan (plan.ts, sized to the PDU
 * the PLC granted) goes over one connection, one job at a time, and each stream gets one record
 * with a column per configured value, time stamped when the last answer it needed arrived. Nothing
 * is kept between polls: a value that could not be read is null in that poll's record.
 */
export class S7Receiver extends DeviceReceiver<S7Link> {
  private readonly items: PlanItem[];
  /** Values read one by one since a merged range of theirs was refused. */
  private readonly single = new Set<string>();
  private plan: S7Plan | undefined;

  constructor(
    private readonly config: S7ReceiverConfig,
    context: ComponentContext,
  ) {
    super(config, config.streams.map((s) => s.s7_tags.map((t) => t.exportname)), REFUSED, context);
    this.items = planItems(config);
  }

  protected openLink(): S7Link {
    const connection = this.config.connections[0]!;
    return new S7Link({ host: connection.host, port: connection.port, rack: connection.rack, slot: connection.slot, timeoutMs: connection.timeout * 1000 });
  }

  protected async poll(link: S7Link) {
    if (this.plan?.pduSize !== link.pduSize) this.plan = planFor(this.items, link.pduSize, this.single);
    const outcome = await pollOnce(this.config, link, this.plan);
    if (outcome.split.length > 0) {
      for (const item of outcome.split) this.single.add(itemKey(item));
      this.plan = planFor(this.items, link.pduSize, this.single);
      this.context.logger.info(`${link.label}: a range was refused; its ${outcome.split.length} values are read one by one from now on (${this.plan.requests.length} jobs per poll).`);
    }
    return outcome;
  }
}
