/**
 * The agent's messages by code (issue 57): violations, health reasons, markers and quality findings
 * carry a stable `code` and `params`; the console writes them from this catalog, with {param}
 * placeholders. A code missing here falls back to the English text the API sent.
 */
export const AGENT_MESSAGES_EN: Record<string, string> = {};
