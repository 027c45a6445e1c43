/** The schemas of the agent's messages (message.ts), for the API's documents and validation. */
import { z } from 'zod';

const PlainParamSchema = z.union([z.string(), z.number(), z.boolean()]);
/** A message inside a message's params: `{problem} Next attempt in {seconds} s.` with problem said by code too. */
const nestedMessage = <T extends z.ZodTypeAny>(params: T) => z.object({ code: z.string(), params: z.record(z.string(), params), text: z.string() });
const InnerParamSchema = z.union([PlainParamSchema, nestedMessage(PlainParamSchema)]);

export const MessageParamsSchema = z
  .record(z.string(), z.union([PlainParamSchema, nestedMessage(InnerParamSchema)]))
  .describe(
    'The values put into the code\'s template ({name} in the template is params.name). A value may itself be a message ({code, params, text}, at most two levels deep): a client writes it in its language the same way, or uses its text.',
  );

export const MessageCodeSchema = z
  .string()
  .describe('Stable code of the message (e.g. "schema.required", "mqtt.connection_unknown"): a client translates it with params and falls back to the English text when it does not know the code.');

