/**
 * A transmit added by a save sends only what is read from then on (issue 56 point 1): what its
 * streams read before is marked read and does not come back unless it is restreamed. This finds the
 * new transmits of a draft and the streams each takes, so that the save dialog can say so and offer
 * a restream of the chosen ones.
 */
import type { RestreamRequest } from '../../../../shared/api/resources.js';
import { filterSelects, streamId } from '../../../../shared/config/streams.js';

export interface StreamChoice {
  receiver: string;
  asset: string;
  stream_type: string;
  /** receiver + stream, unique within a configuration. */
  key: string;
}

export interface NewTransmit {
  name: string;
  streams: StreamChoice[];
}

type Doc = Record<string, unknown> | undefined;

const list = (doc: Doc, key: string): Record<string, unknown>[] => {
  const value = doc?.[key];
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object') : [];
};

/** The streams of a document with their receivers, read defensively (a draft may be half typed). */
export function streamsOf(doc: Doc): StreamChoice[] {
  const out: StreamChoice[] = [];
  for (const receiver of list(doc, 'data_receiver')) {
    const name = receiver.data_receiver_name;
    if (typeof name !== 'string') continue;
    for (const stream of list(receiver, 'streams')) {
      const { asset, stream_type } = stream;
      if (typeof asset === 'string' && typeof stream_type === 'string') out.push({ receiver: name, asset, stream_type, key: `${name}\0${streamId(asset, stream_type)}` });
    }
  }
  return out;
}

/** Transmits of `draft` that `saved` does not have (by name), each with the streams its filter_stream takes. */
export function newTransmits(saved: Doc, draft: Doc): NewTransmit[] {
  const before = new Set(list(saved, 'data_transmit').map((t) => t.transmit_name));
  const streams = streamsOf(draft);
  const out: NewTransmit[] = [];
  for (const transmit of list(draft, 'data_transmit')) {
    const name = transmit.transmit_name;
    if (typeof name !== 'string' || before.has(name)) continue;
    const filter = Array.isArray(transmit.filter_stream) ? transmit.filter_stream.filter((f): f is string => typeof f === 'string') : undefined;
    out.push({ name, streams: streams.filter((s) => filterSelects(filter, streamId(s.asset, s.stream_type))) });
  }
  return out;
}

/** The chosen streams as a POST /v1/restream body; undefined when none is chosen. */
export function restreamRequest(choices: readonly StreamChoice[], picked: ReadonlySet<string>): RestreamRequest | undefined {
  const request: RestreamRequest = {};
  for (const choice of choices) {
    if (!picked.has(choice.key)) continue;
    (request[choice.receiver] ??= []).push({ asset: choice.asset, stream_type: choice.stream_type });
  }
  return Object.keys(request).length > 0 ? request : undefined;
}
