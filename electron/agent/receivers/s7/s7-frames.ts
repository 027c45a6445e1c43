/**
 * The S7comm answers the link reads, parsed with every length checked against the bytes that came
 * (a lie in a header gives a sentence, never a read past the frame). Pure. A frame here is one whole
 * TPKT frame: 4 bytes TPKT, the COTP header (its length byte first), then the S7 PDU.
 */

/** One item of a read answer: its bytes, or the PLC's return code for it and what it means. */
export type ItemAnswer = { data: Buffer; code?: undefined } | { code: number; meaning: string; data?: undefined };

/** The return codes of a read item (S7comm "data item return code"). */
export const ITEM_CODES: Record<number, string> = {
  0x01: 'hardware fault',
  0x03: 'accessing the object not allowed',
  0x05: 'address out of range',
  0x06: 'data type not supported',
  0x07: 'data type inconsistent',
  0x0a: 'object does not exist',
};

/** Error class and code of a refused job in the S7 header, as far as they are known. */
const HEADER_ERRORS: Record<number, string> = {
  0x8104: 'function not available in this context',
  0x8500: 'the job does not fit the PDU size',
  0x8702: 'address error',
  0x8703: 'access error',
  0xd602: 'the job was refused (protection level)',
};

export function itemCodeText(code: number): string {
  return `return code 0x${code.toString(16).padStart(2, '0')} (${ITEM_CODES[code] ?? 'unknown return code'})`;
}

/** The S7 PDU of a COTP data frame, or a sentence saying why there is none. */
function s7Pdu(frame: Buffer): Buffer | string {
  if (frame.length < 7) return `a frame of ${frame.length} bytes`;
  const cotpEnd = 5 + frame[4]!;
  if (frame[5] !== 0xf0 || cotpEnd > frame.length) return 'a frame that is not COTP data';
  if ((frame[6]! & 0x80) === 0) return 'a fragmented COTP frame';
  const pdu = frame.subarray(cotpEnd);
  if (pdu.length < 12 || pdu[0] !== 0x32) return 'a frame without an S7 header';
  if (pdu[1] !== 0x03 && pdu[1] !== 0x02) return `an S7 message of type ${pdu[1]} where an answer was expected`;
  return pdu;
}

/** undefined when the PLC confirmed the COTP connection, else what it said. */
export function parseConnectConfirm(frame: Buffer): string | undefined {
  if (frame.length < 7) return `a frame of ${frame.length} bytes`;
  const type = frame[5]! & 0xf0;
  if (type === 0xd0) return undefined;
  if (type === 0x80) return 'it answered with a disconnect request: no CPU at that rack and slot, or it takes no more connections';
  return `it answered with COTP message 0x${type.toString(16)}`;
}

/** The PDU size the PLC granted, or why its answer is none. */
export function parseSetupAnswer(frame: Buffer): { pduSize: number } | string {
  const pdu = s7Pdu(frame);
  if (typeof pdu === 'string') return pdu;
  const errorCode = pdu.readUInt16BE(10);
  if (errorCode !== 0) return `error 0x${errorCode.toString(16)}`;
  if (pdu.length < 20 || pdu[12] !== 0xf0) return 'an answer that is not a setup answer';
  const pduSize = pdu.readUInt16BE(18);
  if (pduSize < 64) return `a PDU size of ${pduSize} bytes, too small to read with`;
  return { pduSize };
}

/** Why a whole job was refused, in the PLC's words and ours. */
export function headerErrorText(errorCode: number): string {
  return `error 0x${errorCode.toString(16).padStart(4, '0')} (${HEADER_ERRORS[errorCode] ?? 'unknown error'})`;
}

/**
 * The items of a read answer (exactly `lengths.length`, each of its asked length), or the job's
 * refusal, or a sentence saying why the frame is no answer to the job `reference`.
 */
export function parseReadAnswer(frame: Buffer, reference: number, lengths: readonly number[]): { items: ItemAnswer[]; refused?: undefined } | { refused: string; items?: undefined } | string {
  const pdu = s7Pdu(frame);
  if (typeof pdu === 'string') return pdu;
  if (pdu.readUInt16BE(4) !== reference) return `the answer to job ${pdu.readUInt16BE(4)} where ${reference} was asked`;
  const parameterLength = pdu.readUInt16BE(6);
  const dataLength = pdu.readUInt16BE(8);
  if (12 + parameterLength + dataLength !== pdu.length) return `lengths (${parameterLength} + ${dataLength}) that do not add up to its ${pdu.length} bytes`;
  const errorCode = pdu.readUInt16BE(10);
  if (errorCode !== 0) return { refused: headerErrorText(errorCode) };
  if (parameterLength < 2 || pdu[12] !== 0x04) return 'an answer that is not a read answer';
  if (pdu[13] !== lengths.length) return `${pdu[13]} items where ${lengths.length} were asked`;
  const items: ItemAnswer[] = [];
  let at = 12 + parameterLength;
  for (let i = 0; i < lengths.length; i += 1) {
    if (at + 4 > pdu.length) return `item ${i + 1} missing`;
    const code = pdu[at]!;
    const transport = pdu[at + 1]!;
    const count = pdu.readUInt16BE(at + 2);
    // Transport sizes 3, 4 and 5 count bits; 7 and 9 bytes.
    const bytes = transport === 0x03 || transport === 0x04 || transport === 0x05 ? Math.ceil(count / 8) : count;
    at += 4;
    if (code !== 0xff) {
      // A refused item carries no data, whatever its length field says (Snap7 repeats the length asked).
      items.push({ code, meaning: itemCodeText(code) });
      continue;
    }
    if (bytes !== lengths[i]) return `${bytes} bytes for item ${i + 1}, which asked for ${lengths[i]}`;
    if (at + bytes > pdu.length) return `item ${i + 1} longer than the frame`;
    items.push({ data: Buffer.from(pdu.subarray(at, at + bytes)) });
    at += bytes;
    if (i < lengths.length - 1 && bytes % 2 === 1) at += 1;
  }
  return { items };
}
