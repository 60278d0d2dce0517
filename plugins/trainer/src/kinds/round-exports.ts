import type { ExportFormat } from '@cowork/host';
import { trainerError } from '../errors';
import { readOfKind } from '../read-of-kind';
import { lossCurve, PLOT_CSS, renderRoundReport } from '../report/round-report';
import type { CheckpointContent } from './checkpoint-kind';
import type { DatasetContent } from './dataset-kind';
import type { RoundContent } from './round-kind';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * The round report as an export, so the page (a frame in the round's view) and
 * `cowork resources export <round> html` give the same page trainer_evaluate_round writes as a file:
 * rendered from the round's revision and the resources it names (its dataset at the recorded
 * revision, its checkpoint), not read from the file, so it follows renames and survives a lost file.
 *
 * An export either answers bytes or throws a coded error, and a report is made of the evaluation,
 * so a round not evaluated is refused (`invalid_input`, reason `not_evaluated`) rather than answered
 * with a page that would be saved as if it were a report. The view frames it only once evaluated.
 */
export const reportExport: ExportFormat<RoundContent> = {
  mediaType: 'text/html; charset=utf-8',
  extension: 'html',
  description: 'The round report: lineage, data, filter counts, token share, loss curve, held-out scores with intervals, comparisons. Refused (not_evaluated) until the round is evaluated.',
  async export(round, context) {
    if (!round.evaluation || !round.checkpoint || !round.dataset) {
      throw trainerError(
        'not_evaluated',
        `the round ${context.resourceId} at revision ${context.revision} is ${round.status} and has no evaluation: its report is made by trainer_evaluate_round once its checkpoint is scored`,
        { resourceId: context.resourceId, revision: context.revision, status: round.status },
      );
    }
    // The dataset at the revision the round trained on (the kind's checkContent made sure it is a filtered trainer.dataset there).
    const { id, revision } = round.dataset;
    const dataset = { id, revision, content: (await context.resources.contentAt(id, revision)) as DatasetContent };
    context.signal.throwIfAborted();
    const checkpoint = await readOfKind<CheckpointContent>(context.resources, round.checkpoint.id, 'trainer.checkpoint', 'the checkpoint');
    return utf8(renderRoundReport({ roundId: context.resourceId, round, evaluation: round.evaluation, dataset, checkpoint: { id: round.checkpoint.id, content: checkpoint.content } }));
  },
};

/**
 * The loss curve alone as an SVG file (the view's picture of it): the report's plot with the SVG
 * namespace and the report's plot style inside, since a picture outside a page has neither. A round
 * without metrics yet gets a picture saying so: an empty curve is what it has.
 */
export const lossSvgExport: ExportFormat<RoundContent> = {
  mediaType: 'image/svg+xml',
  extension: 'svg',
  description: 'The masked training loss by step as an SVG plot.',
  async export(round) {
    const svg = lossCurve(round.metrics) ?? '<svg class="plot" role="img" aria-label="no metrics yet" viewBox="0 0 420 40" width="420" height="40"><text x="0" y="24">No metrics recorded yet.</text></svg>';
    return utf8(svg.replace(/^<svg /, `<svg xmlns="http://www.w3.org/2000/svg" `).replace(/(<svg [^>]*>)/, `$1<style>${PLOT_CSS}</style>`));
  },
};

export const roundExports = { html: reportExport, 'loss-svg': lossSvgExport };
