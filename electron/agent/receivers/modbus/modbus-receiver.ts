import type { ComponentContext } from '../../components/contract.js';
import { DeviceReceiver } from '../device-receiver.js';
import { ModbusLink } from './modbus-link.js';
import { type ReadRequest, planReads } from './plan.js';
import { type ModbusReceiverConfig, planItems, pollOnce } from './poll.js';

export type { ModbusReceiverConfig };

/** A value the device refused (an exception answer): the stream goes on with the others. */
const EXCEPTION = 'modbus_exception';

/**
 * Reads Modbus TCP devices (docs/modbus.md): every poll_interval the read plan (plan.ts) goes to the
 * first connection's device or gateway, one request at a time, and each stream gets one record with
 * a column per configured value, time stamped when the last answer it needed arrived. Nothing is
 * kept between polls: a value that could not be read is null in that poll's record.
 */
export class ModbusReceiver extends DeviceReceiver<ModbusLink> {
  private plan: ReadRequest[];

  constructor(
    private readonly config: ModbusReceiverConfig,
    context: ComponentContext,
  ) {
    super(config, config.streams.map((s) => s.modbus_registers.map((r) => r.exportname)), EXCEPTION, context);
    this.plan = planReads(planItems(config));
  }

  protected openLink(): ModbusLink {
    const connection = this.config.connections[0]!;
    return new ModbusLink({ host: connection.host, port: connection.port, timeoutMs: connection.timeout * 1000, units: this.config.streams.map((s) => s.unit_id) });
  }

  protected async poll(link: ModbusLink) {
    const outcome = await pollOnce(this.config, link, this.plan);
    if (outcome.replanned) {
      this.plan = outcome.replanned;
      this.context.logger.info(`${link.label}: a request was refused as an illegal address; its values are read one by one from now on (${this.plan.length} requests per poll).`);
    }
    return outcome;
  }
}
