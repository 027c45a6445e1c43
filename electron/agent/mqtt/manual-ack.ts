/**
 * Acknowledging received QoS 1 messages only after their records are committed. MQTT.js sends the
 * PUBACK as soon as `handleMessage` calls back, and handles the next message only then: one SQLite
 * commit (an fsync) per message. Instead the receiver calls back at once with DEFERRED_ACK, which
 * makes MQTT.js skip its PUBACK (mqtt 5.x, handlers/publish.ts: an error in the callback ends the
 * handling without an acknowledgement) and go on; after committing a whole batch the receiver
 * sends the PUBACKs itself, in order. The receiver's crash tests (a kill between reading and
 * committing redelivers) fail if a new MQTT.js version changes this.
 */
import type { IPublishPacket, MqttClient } from 'mqtt';

/** Passed to handleMessage's callback: "do not acknowledge, the receiver will". */
export const DEFERRED_ACK = new Error('acknowledged after commit');

/** MQTT.js's own packet writer (not part of its typed API). */
interface PacketWriter {
  _sendPacket(packet: { cmd: 'puback'; messageId: number; reasonCode?: number }, cb?: () => void): void;
}

/** Acknowledges a QoS 1 message on the connection it came on (nothing for QoS 0). */
export function sendPuback(client: MqttClient, packet: Pick<IPublishPacket, 'qos' | 'messageId'>): void {
  if (packet.qos !== 1 || packet.messageId === undefined) return;
  (client as unknown as PacketWriter)._sendPacket({ cmd: 'puback', messageId: packet.messageId, reasonCode: 0 });
}
