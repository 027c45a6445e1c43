/** What the file source says about a file it cannot read (issue 57: with codes). */
import { say, type AgentMessage } from '../../../../shared/config/message.js';

/**
 * A file that cannot be read, and how many others of the stream cannot either: one message, not
 * one inside another (the error may be a message with a message of its own, a refusal).
 */
export function readFailedSaid(file: string, error: string | AgentMessage, again: 'next_look' | 'until_changed', others = 0): AgentMessage {
  if (again === 'next_look')
    return others > 0
      ? say('file.read_failed_others', 'Reading {file} failed: {error}. It is tried again on the next look. {others} other file(s) of this stream cannot be read either.', { file, error, others })
      : say('file.read_failed', 'Reading {file} failed: {error}. It is tried again on the next look.', { file, error });
  return others > 0
    ? say('file.read_failed_skipped_others', 'Reading {file} failed: {error}. It is skipped until it changes; the thread was replaced. {others} other file(s) of this stream cannot be read either.', { file, error, others })
    : say('file.read_failed_skipped', 'Reading {file} failed: {error}. It is skipped until it changes; the thread was replaced.', { file, error });
}
