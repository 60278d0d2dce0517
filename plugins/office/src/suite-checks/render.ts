/**
 * Checks on what people see: the deck or document as LibreOffice renders it. `office_lint` (run as
 * a person would run it) finds text overflowing its box, empty placeholders and pages that did not
 * render; poppler reads the text on one rendered page.
 */
import { isCoworkError, type SuiteCheck } from '@cowork/host';
import type { Finding, FindingCode, Severity } from '../lint/findings';
import { argsOf, quote, resourceOf, verdict } from './common';
import { pdfPageText } from './readers';

const DEFAULT_CODES: readonly FindingCode[] = ['text_overflow', 'empty_placeholder', 'empty_slide', 'page_not_rendered'];
const DEFAULT_SEVERITIES: readonly Severity[] = ['error', 'warning'];

/** `office_lint` on the final revision reports no finding of these codes and severities (default: overflow, empty placeholders and slides, unrendered pages; errors and warnings). */
const lintClean: SuiteCheck = async (context, args) => {
  const { resource, codes = DEFAULT_CODES, severities = DEFAULT_SEVERITIES } = argsOf<{ resource: string; codes?: FindingCode[]; severities?: Severity[] }>(args);
  const record = resourceOf(context, resource);
  const result = await context.runTool('office_lint', { resourceId: record.id, revision: record.revision });
  if (result.isError) throw new Error(`office_lint failed: ${JSON.stringify(result.content)}`);
  const findings = (result.content as unknown as { findings: Finding[] }).findings.filter((f) => codes.includes(f.code) && severities.includes(f.severity));
  return verdict(
    findings.length === 0,
    findings.length === 0 ? `office_lint finds none of ${codes.join(', ')}` : `office_lint finds ${findings.map((f) => `${f.severity} ${f.code} at ${f.where}`).join('; ')}`,
  );
};

/** Page `page` (1-based: a slide, or a document's page) of the PDF LibreOffice renders shows each of `texts`. */
const renderedText: SuiteCheck = async (context, args) => {
  const { resource, page, texts } = argsOf<{ resource: string; page: number; texts: string[] }>(args);
  const record = resourceOf(context, resource);
  let shown: string;
  try {
    shown = await pdfPageText(await context.exportResource(record.id, 'pdf'), page, context.workDir, context.signal);
  } catch (error) {
    // LibreOffice that cannot render the content, or a render without that page, fails the item; a missing program breaks the check.
    if (isCoworkError(error) && error.code === 'plugin_failed' && error.details.reason !== 'program_missing') return verdict(false, `no rendered page ${page} (${String(error.details.reason)})`);
    throw error;
  }
  const missing = texts.filter((text) => !shown.includes(text.replace(/\s+/g, ' ').trim()));
  return verdict(missing.length === 0, missing.length === 0 ? `rendered page ${page} shows ${quote(texts)}` : `rendered page ${page} lacks ${quote(missing)}; it shows ${quote(shown.slice(0, 300))}`);
};

export const renderChecks = {
  lint_clean: lintClean,
  rendered_text: renderedText,
} satisfies Record<string, SuiteCheck>;
