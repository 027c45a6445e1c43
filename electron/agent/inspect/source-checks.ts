/**
 * Validation that needs the file system (or the network): a file receiver's folder that does not
 * exist or cannot be read, and a stream whose file_filter matches no file yet. These are warnings,
 * not errors: a folder may be created later, files arrive when the machine runs. Pure validation
 * (shared/config) cannot see them; the agent adds them when it validates or saves.
 */
import type { Configuration, DataReceiver } from '../../../shared/config/schema.js';
import { streamId } from '../../../shared/config/streams.js';
import { type Violation, warning, say } from '../../../shared/config/violations.js';
import { fileStreams, streamOf } from '../receivers/file-source/file-streams.js';
import { receiverFilesOf } from '../../../shared/config/receivers/derive.js';
import { type FolderListing, type ListedFile, SourceProblem, type SourceFolder, localFolder, smbFolder } from '../receivers/file-preview/source-folders.js';

/** A receiver that reads files (its protocol's descriptor has `files`). */
type FileReceiver = Extract<DataReceiver, { parsers: unknown }>;

interface Listing {
  label: string;
  files?: ListedFile[];
  /** Listed in part (a sample of a big folder): that no file matches proves nothing. */
  partial?: boolean;
  skipped?: FolderListing['skipped'];
  problem?: SourceProblem;
}

export interface SourceCheckOptions {
  /** Answer time allowed to a file server (each call). */
  smbTimeoutMs?: number;
  /** How long a share's listing is reused: validation runs as the engineer types. */
  smbCacheMs?: number;
  now?: () => number;
  /** The agent's data directory: folders reaching into it are never listed (ReadPolicy). */
  dataDirectory?: string;
}

const isFileReceiver = (receiver: DataReceiver): receiver is FileReceiver => receiverFilesOf(receiver.protocol) !== undefined;
const isShare = (receiver: FileReceiver) => receiverFilesOf(receiver.protocol)?.share === true;

/** Folder and file_filter warnings of a configuration's file receivers. */
export class SourceChecks {
  private readonly smbListings = new Map<string, { at: number; listing: Listing }>();
  private readonly smbTimeoutMs: number;
  private readonly smbCacheMs: number;
  private readonly now: () => number;
  private readonly dataDirectory: string | undefined;

  constructor(options: SourceCheckOptions = {}) {
    this.smbTimeoutMs = options.smbTimeoutMs ?? 3000;
    this.smbCacheMs = options.smbCacheMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.dataDirectory = options.dataDirectory;
  }

  /**
   * Warnings for every file receiver without errors of its own (`violations`: what validation found
   * so far; a receiver still holding template prompts is not looked at).
   */
  async warnings(config: Configuration, violations: readonly Violation[]): Promise<Violation[]> {
    const out: Violation[] = [];
    const checks = config.data_receiver.map(async (receiver, index) => {
      if (!isFileReceiver(receiver)) return;
      if (violations.some((v) => v.level === 'error' && v.json_path[0] === 'data_receiver' && v.json_path[1] === index)) return;
      out.push(...(await this.receiverWarnings(receiver, index)));
    });
    await Promise.all(checks);
    return out;
  }

  private async receiverWarnings(receiver: FileReceiver, index: number): Promise<Violation[]> {
    const out: Violation[] = [];
    const at = ['data_receiver', index] as const;
    const listings = await Promise.all(receiver.connections.map((connection) => this.listing(receiver, connection)));
    listings.forEach((listing, k) => {
      if (listing.problem) out.push(warning([...at, 'connections', k, listing.problem.field], say('source.listing_problem', '{text}', { text: listing.problem.message })));
      const skipped = listing.skipped ?? [];
      if (skipped.length > 0) {
        const named = skipped.slice(0, 3).map((s) => `${s.folder} ${s.why}`).join('; ');
        const field = receiverFilesOf(receiver.protocol)!.folderField(receiver.connections[k]!);
        out.push(warning([...at, 'connections', k, field], skipped.length > 3 ? say('source.subfolders_skipped_more', 'Subfolders that cannot be read are skipped, the rest is read: {named} and {more} more.', { named, more: skipped.length - 3 }) : say('source.subfolders_skipped', 'Subfolders that cannot be read are skipped, the rest is read: {named}.', { named })));
      }
    });
    const listed = listings.filter((l): l is Listing & { files: ListedFile[] } => l.files !== undefined);
    // A folder listed only in part cannot tell that a stream has no file.
    if (listed.length === 0 || listed.some((l) => l.partial)) return out;
    const streams = fileStreams(receiver, isShare(receiver));
    const files = listed.flatMap((l) => l.files.map((f) => f.relative));
    const where = listed.map((l) => l.label).join(', ');
    streams.forEach((stream, k) => {
      if (files.some((file) => streamOf(streams, file) === stream)) return;
      const configured = receiver.streams[k]!;
      // path_filter, when given, is what the receiver matches (file_filter then does not count).
      const field = configured.path_filter !== undefined ? 'path_filter' : 'file_filter';
      const filter = JSON.stringify(configured.path_filter ?? configured.file_filter ?? []);
      const matching = files.find((file) => stream.filters.some((f) => f.matches(file)));
      if (matching !== undefined) {
        const owner = streamOf(streams, matching)!.key;
        out.push(warning([...at, 'streams', k, field], say('source.every_file_matching_read', 'Every file matching {filter} (e.g. {matching}) is read by the stream {streamId} listed before this one: this stream reads nothing.', { filter, matching, streamId: streamId(owner.asset, owner.stream_type) })));
        return;
      }
      const there = files.length === 0 ? 'The folder is empty.' : `Files there: ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}.`;
      out.push(warning([...at, 'streams', k, field], say('source.file_matches_yet_stream', 'No file in {where} matches {filter} yet: this stream reads nothing until one arrives. {there}', { where, filter, there })));
    });
    return out;
  }

  private async listing(receiver: FileReceiver, connection: FileReceiver['connections'][number]): Promise<Listing> {
    if (!isShare(receiver)) return list(localFolder(connection as Parameters<typeof localFolder>[0], this.dataDirectory));
    const smb = connection as Parameters<typeof smbFolder>[0];
    const key = JSON.stringify(smb);
    const cached = this.smbListings.get(key);
    if (cached && this.now() - cached.at < this.smbCacheMs) return cached.listing;
    let listing: Listing;
    try {
      const folder = await smbFolder(smb, this.smbTimeoutMs);
      listing = await list(folder);
    } catch (cause) {
      if (!(cause instanceof SourceProblem)) throw cause;
      listing = { label: smb.shared_folder, problem: cause };
    }
    for (const [old, entry] of this.smbListings) if (this.now() - entry.at >= this.smbCacheMs) this.smbListings.delete(old);
    this.smbListings.set(key, { at: this.now(), listing });
    return listing;
  }
}

async function list(folder: SourceFolder): Promise<Listing> {
  try {
    const { files, partial, skipped } = await folder.list();
    return { label: folder.label, files, partial, skipped };
  } catch (cause) {
    if (cause instanceof SourceProblem) return { label: folder.label, problem: cause };
    throw cause;
  } finally {
    folder.close();
  }
}
