/** The agent's messages by code, in German (see en.ts). Every key of en.ts is here too. */
export const AGENT_MESSAGES_DE: Record<string, string> = {};
