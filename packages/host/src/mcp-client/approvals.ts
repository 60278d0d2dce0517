import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readJsonFile, writeJsonAtomic } from '../util/atomic-file';

/**
 * What a person approved of each mounted server: a hash of every tool's definition (name,
 * description, input schema) as it was then. A tool whose hash no longer matches, or that appeared
 * later, is held: a server that rewrites a description after approval is a known attack ("rug
 * pull"), and what the model reads as a description is an instruction to it. Kept beside mcp.json in
 * its own file so that mcp.json stays in the format other clients read.
 */

export const APPROVALS_FILE = 'mcp-approvals.json';

export interface ServerApproval {
  readonly approvedAt: string;
  /** Tool name (the server's own) → definition hash. */
  readonly tools: Readonly<Record<string, string>>;
}

interface ApprovalsFile {
  readonly servers: Readonly<Record<string, ServerApproval>>;
}

/** The parts of a tool definition a person reviews. Annotations are left out: they are untrusted hints, not behaviour. */
export interface ReviewedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
}

export function toolHash(tool: ReviewedTool): string {
  const reviewed = { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema, outputSchema: tool.outputSchema ?? null };
  return createHash('sha256').update(canonicalJson(reviewed)).digest('hex');
}

export class Approvals {
  constructor(private readonly workspaceDir: string) {}

  private get path(): string {
    return join(this.workspaceDir, APPROVALS_FILE);
  }

  private read(): ApprovalsFile {
    try {
      return readJsonFile<ApprovalsFile>(this.path) ?? { servers: {} };
    } catch {
      // A damaged file approves nothing: every tool is held until a person approves again.
      return { servers: {} };
    }
  }

  get(server: string): ServerApproval | undefined {
    return this.read().servers[server];
  }

  /** Records the tools as they are now as approved for the server. */
  approve(server: string, tools: readonly ReviewedTool[], at: string): ServerApproval {
    const approval: ServerApproval = { approvedAt: at, tools: Object.fromEntries(tools.map((t) => [t.name, toolHash(t)])) };
    const file = this.read();
    writeJsonAtomic(this.path, { servers: { ...file.servers, [server]: approval } });
    return approval;
  }

  forget(server: string): void {
    const file = this.read();
    if (!(server in file.servers)) return;
    const servers = { ...file.servers };
    delete servers[server];
    writeJsonAtomic(this.path, { servers });
  }
}

/** JSON with object keys sorted, so that a hash does not depend on key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
