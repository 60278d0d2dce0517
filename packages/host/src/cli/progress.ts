import type { RuntimeEvent } from '../agents/runtime';

/**
 * Live progress of `cowork run`, one line per runtime event, for people watching a terminal. The
 * lines are not a contract (scripts use `--json`); each names the agent it is about, because Main
 * and async subagents run at the same time and their lines interleave.
 */
export function progressLine(event: RuntimeEvent): string | undefined {
  switch (event.type) {
    case 'turn': {
      const dropped = event.droppedMessages > 0 ? ` · ${event.droppedMessages} old messages left out` : '';
      return `turn ${event.turn} · ${event.agentId} · context ${formatTokens(event.contextTokens)} tokens${dropped}`;
    }
    case 'model': {
      const cut = event.finishReason === 'length' ? ' · cut off at the output limit' : '';
      return `  ${event.agentId} · tokens +${formatTokens(event.inputTokens)} in / +${formatTokens(event.outputTokens)} out${cut}`;
    }
    case 'tool':
      return `  ${event.agentId} → ${event.name} (${event.isError ? 'error' : 'ok'})`;
    case 'delivered': {
      const n = event.messageIds.length;
      return `  ${event.agentId} ← ${n} Inbox message${n === 1 ? '' : 's'}`;
    }
    case 'compacted':
      return `  ${event.agentId} · context compacted`;
    case 'compaction_failed':
      return `  ${event.agentId} · compaction failed: ${event.error}`;
    case 'subagent_started':
      return `subagent ${event.agentId} started (${event.mode})`;
    case 'subagent_finished':
      return `subagent ${event.agentId} finished: ${event.status}`;
    case 'task_state':
      // The start line and the summary say it; a waiting reply can be long.
      return undefined;
  }
}

/** A token count as people read it: 812, 1.2k, 34k, 1.5M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${trimZero((n / 1000).toFixed(1))}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${trimZero((n / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}
