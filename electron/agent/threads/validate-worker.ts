/**
 * Worker thread that validates big configuration documents, so that thousands of receivers (or a
 * hostile body within the limits) never hold up the thread serving the API. Only the capped list of
 * violations, and the parsed configuration when asked, travel back.
 */
import { parentPort } from 'node:worker_threads';
import { capViolations } from '../../../shared/config/limits.js';
import { validateConfiguration } from '../../../shared/config/validate.js';
import type { ValidateRequest, ValidateResponse } from '../workers/validate-protocol.js';

parentPort?.on('message', (request: ValidateRequest) => {
  let response: ValidateResponse;
  try {
    const { violations, config } = validateConfiguration(request.document, request.context);
    response = {
      id: request.id,
      ok: true,
      violations: capViolations(violations),
      config: request.wantConfig ? config : undefined,
    };
  } catch (cause) {
    response = { id: request.id, ok: false, error: (cause as Error).message };
  }
  parentPort!.postMessage(response);
});
