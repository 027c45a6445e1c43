/**
 * The pieces the templates share (templates.ts and each protocol's receivers/<protocol>/template.ts).
 * Kept apart from templates.ts so a protocol folder can use them without an import circle.
 */

/** Prefix of the prompt texts in templates: a value still starting with it was never filled in. */
export const TEMPLATE_PROMPT_PREFIX = '<fill in: ';

export const prompt = (what: string) => `${TEMPLATE_PROMPT_PREFIX}${what}>`;

export const stream = { asset: prompt('machine name'), stream_type: prompt('kind of data, e.g. cycle') };
