/**
 * The agent's words with a stable code (issue 57): every violation, marker, health reason and
 * quality finding carries `code` and `params` beside its English text. Tools read the text; the
 * console writes the code's template in the operator's language (renderer/src/i18n/agent-messages)
 * and falls back to the text for a code it does not know.
 *
 * A template names its parameters in braces: `No connection named "{name}".` The English text is
 * the template with the parameters put in, so text and code can never say different things.
 */
// The schemas of messages are in message-schema.ts: the agent's threads say things without zod.

/** A value of a message: plain, or a message of its own (written in place of its placeholder). */
export type MessageParam = string | number | boolean | AgentMessage;
export interface MessageParams {
  readonly [name: string]: MessageParam;
}

/** An English text with its code and parameters. */
export interface AgentMessage {
  readonly code: string;
  readonly params: MessageParams;
  readonly text: string;
}

/** Puts params into a template: `{name}` becomes params.name (a message: its text); an unknown name stays as written. */
export function fillTemplate(template: string, params: MessageParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name]!;
    return typeof value === 'object' ? value.text : String(value);
  });
}

/** A message from its code, English template and parameters. */
export function say(code: string, template: string, params: MessageParams = {}): AgentMessage {
  return { code, params, text: fillTemplate(template, params) };
}
