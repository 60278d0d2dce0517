/**
 * What `office_lint` reports. `error`: people will see something broken (lines of text outside their
 * box on the rendered page, a slide that did not render); `warning`: something is probably missing
 * or a little off (an empty title, text a few points past its box); `info`: worth a look, not
 * necessarily wrong (an overflow only the estimate sees, an image without alt text).
 */
export type Severity = 'error' | 'warning' | 'info';

export type FindingCode =
  | 'text_overflow'
  | 'empty_placeholder'
  | 'empty_slide'
  | 'empty_document'
  | 'missing_alt_text'
  | 'page_not_rendered';

export interface Finding {
  readonly severity: Severity;
  /** `slide 3 [intro]`, `block [summary]`, `page 4` or `deck`/`document`. */
  readonly where: string;
  readonly code: FindingCode;
  readonly message: string;
}

export function slideWhere(index: number, id: string): string {
  return `slide ${index + 1} [${id}]`;
}

export function blockWhere(id: string): string {
  return `block [${id}]`;
}

/** Errors first, then warnings, then info; stable within a severity. */
export function bySeverity(findings: readonly Finding[]): Finding[] {
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  return [...findings].sort((a, b) => rank[a.severity] - rank[b.severity]);
}
