import { streamId } from '../../../../shared/config/streams.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import type { MarkerReporter, StreamKey } from '../../components/contract.js';
import type { Tag, TagReport } from './stream-records.js';
import type { WatchedNode } from './tag-index.js';

const describe = (tag: Tag) => `${tag.exportname} (${tag.node})`;
const MAX_LISTED = 10;

/**
 * Tags named in a marker: "exportname (node id): status", technical words only, the first
 * MAX_LISTED of them; `more` how many are left out ("; and N more" is said by code).
 */
function list(items: string[]): { tags: string; more: number } {
  return { tags: items.slice(0, MAX_LISTED).join('; '), more: Math.max(0, items.length - MAX_LISTED) };
}

/**
 * Tag-level markers of the streams: node ids the server does not know (`node_not_found`) or will not
 * let us read (`node_unreadable`), values of bad or uncertain quality (`bad_quality`, cleared when
 * the tag is good again) and values that cannot go into a record (`unsupported_value`). One bad tag
 * never stops the others: the markers name the tags, the rest of the stream flows.
 */
export class TagMarkers {
  /**
   * Latest report per stream and tag, copied into one object per tag that is updated in place: the
   * reports of each publish then die young instead of living a second each (into the old generation).
   */
  private readonly latest: Map<string, TagReport>[];
  /** Per stream, how many of the latest reports are not good, and how many rejected: 0 skips the lists. */
  private readonly poorCount: number[];
  private readonly rejectedCount: number[];

  constructor(
    private readonly streams: readonly StreamKey[],
    private readonly markers: MarkerReporter,
    private readonly invalid: readonly { stream: number; tag: Tag; reason: string }[],
  ) {
    this.latest = streams.map(() => new Map());
    this.poorCount = streams.map(() => 0);
    this.rejectedCount = streams.map(() => 0);
  }

  showInvalid(): void {
    this.streams.forEach((stream, index) => {
      const mine = this.invalid.filter((i) => i.stream === index);
      if (mine.length === 0) return;
      const { tags, more } = list(mine.map((i) => `${describe(i.tag)}: ${i.reason}`));
      this.markers.raise(
        [stream],
        'error',
        'node_id_invalid',
        more > 0
          ? say('opcua.node_id_invalid_more', 'Not a valid node id, so not read: {tags}; and {more} more. Use the form ns=2;s=Line1.Temperature or ns=0;i=2258.', { tags, more })
          : say('opcua.node_id_invalid', 'Not a valid node id, so not read: {tags}. Use the form ns=2;s=Line1.Temperature or ns=0;i=2258.', { tags }),
      );
    });
  }

  nodeProblems(problems: ReadonlyMap<WatchedNode, string>): void {
    this.streams.forEach((stream, index) => {
      const unknown: string[] = [];
      const unreadable: string[] = [];
      for (const [node, status] of problems)
        for (const reader of node.readers)
          if (reader.stream === index) (/^BadNodeId/.test(status) ? unknown : unreadable).push(`${describe(reader.tag)}: ${status}`);
      if (unknown.length > 0) {
        const { tags, more } = list(unknown);
        this.markers.raise(
          [stream],
          'error',
          'node_not_found',
          more > 0
            ? say('opcua.node_not_found_more', 'The server does not know these node ids, so they are not read (the other tags are): {tags}; and {more} more. Check them with the tag browser; they are looked up again every 30 s and after each reconnect.', { tags, more })
            : say('opcua.node_not_found', 'The server does not know these node ids, so they are not read (the other tags are): {tags}. Check them with the tag browser; they are looked up again every 30 s and after each reconnect.', { tags }),
        );
      } else this.markers.clear('node_not_found', [stream]);
      if (unreadable.length > 0) {
        const { tags, more } = list(unreadable);
        this.markers.raise(
          [stream],
          'error',
          'node_unreadable',
          more > 0
            ? say('opcua.node_unreadable_more', 'The server refuses to read these tags (the other tags are read): {tags}; and {more} more. Is each node a variable the user may read?', { tags, more })
            : say('opcua.node_unreadable', 'The server refuses to read these tags (the other tags are read): {tags}. Is each node a variable the user may read?', { tags }),
        );
      } else this.markers.clear('node_unreadable', [stream]);
    });
  }

  values(index: number, reports: readonly TagReport[]): void {
    const latest = this.latest[index]!;
    // Counted as reports come (thousands a second); the tags are listed only when some are poor.
    for (const report of reports) {
      const previous = latest.get(report.tag.exportname);
      if (previous && previous.micros > report.micros) continue;
      this.poorCount[index]! += (report.quality !== 'good' ? 1 : 0) - (previous && previous.quality !== 'good' ? 1 : 0);
      this.rejectedCount[index]! += (report.rejected ? 1 : 0) - (previous?.rejected ? 1 : 0);
      if (!previous) latest.set(report.tag.exportname, { ...report });
      else {
        previous.tag = report.tag;
        previous.status = report.status;
        previous.quality = report.quality;
        previous.rejected = report.rejected;
        previous.micros = report.micros;
      }
    }
    const stream = this.streams[index]!;
    const poor = this.poorCount[index] === 0 ? [] : [...latest.values()].filter((r) => r.quality !== 'good');
    if (poor.length > 0) {
      const id = streamId(stream.asset, stream.stream_type);
      const { tags, more } = list(poor.map((r) => `${describe(r.tag)}: ${r.status}`));
      this.markers.raise(
        [stream],
        'warning',
        'bad_quality',
        more > 0
          ? say('opcua.bad_quality_more', '{stream}: values that are not good are recorded with their status in <column>_status: {tags}; and {more} more.', { stream: id, tags, more })
          : say('opcua.bad_quality', '{stream}: values that are not good are recorded with their status in <column>_status: {tags}.', { stream: id, tags }),
      );
    } else this.markers.clear('bad_quality', [stream]);
    const rejected = this.rejectedCount[index] === 0 ? [] : [...latest.values()].filter((r) => r.rejected);
    if (rejected.length > 0) this.markers.raise([stream], 'warning', 'unsupported_value', unsupported(rejected));
    else this.markers.clear('unsupported_value', [stream]);
  }
}

/**
 * Tags whose values cannot go into a column: each said whole ("profile (ns=2;s=Profile) holds an
 * array of …"), the first three named and the rest counted.
 */
function unsupported(reports: readonly TagReport[]): AgentMessage {
  const [first, second, third] = reports.slice(0, 3).map((r) => say('opcua.tag_holds', '{tag} holds {value}', { tag: describe(r.tag), value: r.rejected! }));
  if (reports.length > 3)
    return say('opcua.unsupported_values_more', 'These tags hold values Tributary cannot put in a column, recorded as empty: {first}; {second}; {third}; and {more} more.', { first: first!, second: second!, third: third!, more: reports.length - 3 });
  if (third) return say('opcua.unsupported_values_3', 'These tags hold values Tributary cannot put in a column, recorded as empty: {first}; {second}; {third}.', { first: first!, second: second!, third });
  if (second) return say('opcua.unsupported_values_2', 'These tags hold values Tributary cannot put in a column, recorded as empty: {first}; {second}.', { first: first!, second });
  return say('opcua.unsupported_value', 'These tags hold values Tributary cannot put in a column, recorded as empty: {first}.', { first: first! });
}
