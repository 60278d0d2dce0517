import { definePlugin } from '@cowork/host';
import { retailDbKind } from './kind';
import { tau2RetailSuite } from './suite';
import { retailTools } from './tools';

/**
 * τ²-bench retail as a cowork plugin: the store's database as the `tau2.retail-db` kind (host
 * revisions, one op per write tool call), the domain's tools as agent tools, and the `tau2-retail`
 * benchmark suite (the policy as Main's instructions, a simulated customer, the reference's scoring).
 */
export const plugin = definePlugin({
  name: 'tau2-retail',
  version: '0.1.0',
  description: "τ²-bench retail: the store's database, its customer-service tools, and the benchmark suite",
  kinds: [retailDbKind],
  tools: [...retailTools],
  suites: [tau2RetailSuite],
});

export { retailDbKind, RETAIL_DB_KIND } from './kind';
export { tau2RetailSuite, suiteTask, goldDbOf, agentInstructions, SUITE_NAME, TASK_BUDGET } from './suite';
export { retailTools } from './tools';
export { callTool, applyWrite, ToolError, WRITE_TOOLS, READ_TOOLS, GENERIC_TOOLS, type WriteOp, type ToolOutcome } from './domain';
export { normalizeDb, type RetailDb } from './model';
export { loadData, resolveDataDir, defaultDataDir, rawTask, type RawTask, type RawAction, type RetailData } from './data';
export { replayGold, goldActions, type GoldStep } from './gold';
export { referenceScript, type SessionScript } from './scripts';
export { canonicalJson, pyJson, pyRound2, pyFloatRepr } from './py';
export { calculate } from './calculate';
export { goldDbCli, makeScriptsCli } from './cli';
