import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoworkError } from '../errors';
import { isPlainObject } from '../util/json';

/**
 * What makes a tool call high-impact:
 * - `network`: a job or command monitor that reaches the network;
 * - `unsandboxed`: a command run outside the sandbox;
 * - `publish`: making something visible beyond the workspace;
 * - `delete`: removing something that cannot be restored from history;
 * - `destructive`: a mounted MCP server's tool its server marks `destructiveHint`;
 * - `high_impact`: a tool its plugin marks high-impact.
 */
export const IMPACTS = ['network', 'unsandboxed', 'publish', 'delete', 'destructive', 'high_impact'] as const;
export type Impact = (typeof IMPACTS)[number];

/** `ask`: park the call until a person approves or denies it; `allow`: run it; `deny`: refuse it. */
export type ApprovalRule = 'ask' | 'allow' | 'deny';
const RULES: readonly ApprovalRule[] = ['ask', 'allow', 'deny'];

export type ApprovalPolicy = Readonly<Record<Impact, ApprovalRule>>;

/** The safe default: every high-impact call waits for a person. */
export const DEFAULT_POLICY: ApprovalPolicy = Object.fromEntries(IMPACTS.map((impact) => [impact, 'ask'])) as Record<Impact, ApprovalRule>;

export const POLICY_FILE = 'policy.json';

/**
 * The workspace's policy: `<workspace>/policy.json`, `{"approvals": {"network": "allow", ...}}`,
 * over the default (impacts it does not name stay `ask`). Read at every high-impact call, so an
 * edit applies at once; only a person can edit it (agents' commands never see the workspace's
 * files, and no tool writes it). A file that is not valid is an error, never a silent default.
 */
export function loadPolicy(workspaceDir: string): ApprovalPolicy {
  const path = join(workspaceDir, POLICY_FILE);
  if (!existsSync(path)) return DEFAULT_POLICY;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw invalid(path, [`not JSON: ${(error as Error).message}`]);
  }
  return checkPolicy(parsed, path);
}

export function checkPolicy(value: unknown, path: string): ApprovalPolicy {
  const problems: string[] = [];
  if (!isPlainObject(value)) throw invalid(path, ['the policy must be an object like {"approvals": {"network": "ask"}}']);
  for (const key of Object.keys(value)) if (key !== 'approvals') problems.push(`unknown key ${JSON.stringify(key)} (only "approvals")`);
  const approvals = value.approvals ?? {};
  if (!isPlainObject(approvals)) throw invalid(path, ['"approvals" must be an object']);
  const policy: Record<Impact, ApprovalRule> = { ...DEFAULT_POLICY };
  for (const [impact, rule] of Object.entries(approvals)) {
    if (!(IMPACTS as readonly string[]).includes(impact)) problems.push(`unknown impact ${JSON.stringify(impact)} (one of ${IMPACTS.join(', ')})`);
    else if (!RULES.includes(rule as ApprovalRule)) problems.push(`${impact}: ${JSON.stringify(rule)} is not one of ${RULES.join(', ')}`);
    else policy[impact as Impact] = rule as ApprovalRule;
  }
  if (problems.length > 0) throw invalid(path, problems);
  return policy;
}

function invalid(path: string, problems: string[]): CoworkError {
  return new CoworkError('invalid_config', `the approval policy ${path} is not valid: ${problems.join('; ')}`, { path, problems });
}
