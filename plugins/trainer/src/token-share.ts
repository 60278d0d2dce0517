/**
 * The token-share diagnosis (paper §4.5): when a few long trajectories hold most supervised tokens,
 * SFT mostly learns those few. The report gives the share held by the longest trajectories, how many
 * trajectories hold 50% and 80% of the tokens, and warns when the longest `topFraction` of them
 * hold more than `warnShare`. The paper's case: 42 of 135 trajectories (31.11%) held 84.2%.
 */
export interface TokenShareOptions {
  /** Which fraction of trajectories, longest first, "the longest" means (default 0.3111 = 42/135 rounded up). */
  readonly topFraction?: number;
  /** Warn when the longest `topFraction` hold more than this share of supervised tokens (default 0.6). */
  readonly warnShare?: number;
}

export interface TokenShareReport {
  readonly tokenizer: string;
  readonly trajectories: number;
  readonly supervisedTokens: number;
  /** The longest trajectories counted: ceil(topFraction × trajectories). */
  readonly top: { readonly count: number; readonly fraction: number; readonly tokens: number; readonly share: number; readonly percent: number };
  /** Fewest trajectories (longest first) whose tokens reach 50% and 80% of all supervised tokens. */
  readonly trajectoriesFor50: number;
  readonly trajectoriesFor80: number;
  /** Tokens those trajectories hold. */
  readonly tokensFor50: number;
  readonly tokensFor80: number;
  readonly warnShare: number;
  readonly warning: string | null;
}

export const DEFAULT_TOP_FRACTION = 0.3111;
export const DEFAULT_WARN_SHARE = 0.6;

export function tokenShare(tokenizer: string, supervisedPerTrajectory: readonly number[], options: TokenShareOptions = {}): TokenShareReport {
  const topFraction = options.topFraction ?? DEFAULT_TOP_FRACTION;
  const warnShare = options.warnShare ?? DEFAULT_WARN_SHARE;
  const sorted = [...supervisedPerTrajectory].sort((a, b) => b - a);
  const total = sorted.reduce((s, n) => s + n, 0);
  const topCount = Math.min(sorted.length, Math.ceil(topFraction * sorted.length - 1e-9));
  const topTokens = sorted.slice(0, topCount).reduce((s, n) => s + n, 0);
  const share = total === 0 ? 0 : topTokens / total;
  const reach = (target: number): { count: number; tokens: number } => {
    let tokens = 0;
    for (let i = 0; i < sorted.length; i++) {
      tokens += sorted[i]!;
      if (tokens >= target * total) return { count: i + 1, tokens };
    }
    return { count: sorted.length, tokens };
  };
  const at50 = reach(0.5);
  const at80 = reach(0.8);
  const percent = Math.round(share * 100);
  const warning = share > warnShare
    ? `${topCount} of ${sorted.length} trajectories (${pct(topCount / Math.max(sorted.length, 1))}) hold ${pct(share)} of the supervised tokens (over ${pct(warnShare)}): training will mostly learn those; cap their length or raise the others' multipliers`
    : null;
  return {
    tokenizer,
    trajectories: sorted.length,
    supervisedTokens: total,
    top: { count: topCount, fraction: topFraction, tokens: topTokens, share, percent },
    trajectoriesFor50: at50.count,
    trajectoriesFor80: at80.count,
    tokensFor50: at50.tokens,
    tokensFor80: at80.tokens,
    warnShare,
    warning,
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}
