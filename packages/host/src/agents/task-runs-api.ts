import type { ToolRunsApi } from '../plugins/types';
import type { Operator } from '../store/records';
import { runView, type Runs } from './runs';

/**
 * The runs a plugin's tools record for the calling task and agent (ToolHostApi.runs): a plugin's
 * job started unsandboxed (its own command; the plugin's code already runs with the host's rights),
 * or a result it computed. The records are those agents' start_run and record_run make.
 */
export function taskRunsApi(runs: Runs, scope: { readonly taskId: string; readonly operator: Operator }): ToolRunsApi {
  return {
    startJob: async ({ job, metricsFile, ...fields }) => runView(await runs.start({ ...fields, ...scope, job, metricsFile })),
    list: async () => (await runs.list(scope.taskId)).map(runView),
    recordResult: async (request) => runView(await runs.recordResult({ ...request, ...scope })),
  };
}
