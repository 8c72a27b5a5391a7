/** "Revert this change": one new commit through `memory.revert`, with the reason the user typed. */
import type { RevertResult } from '../../internals.js';
import { bodyString, type ApiRequest } from './request.js';

export async function revert(req: ApiRequest): Promise<RevertResult> {
  return req.view.memory.revert(bodyString(req, 'sha', 256), { reason: bodyString(req, 'reason') });
}
