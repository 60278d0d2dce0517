import type { Chart, ChartType } from '../shared/chart';
import { MAX_IMAGE_BYTES, type ImageMediaType } from '../shared/image';
import { MAX_TABLE_COLUMNS, MAX_TABLE_ROWS, type Table } from '../shared/table';
import { paragraphText, paragraphs, type Paragraph } from './pptx-text';
import { attr, child, children, descendants, kids, readPart, tagOf, textOf, type XmlNode } from './pptx-xml';
import type { SafeZip } from '@cowork/host';

/** What one slide's shape tree holds, in document (z) order. */
export type ShapeFinding =
  | { kind: 'title'; centered: boolean; text: string }
  | { kind: 'subtitle'; paragraphs: Paragraph[] }
  | { kind: 'text'; paragraphs: Paragraph[] }
  | { kind: 'table'; name: string; table: Table }
  | { kind: 'chart'; name: string; chart: Chart }
  | { kind: 'image'; name: string; mediaType: ImageMediaType; data: Uint8Array; alt: string };

type Relationships = Map<string, { type: string; path: string }>;

/** Decoded image bytes the deck may still take; a picture that does not fit is skipped unread. */
export type ImageBudget = { imageBytes: number };

/** Placeholders that repeat on every slide and are not content. */
const CHROME = new Set(['dt', 'ftr', 'sldNum', 'hdr', 'sldImg']);

/** Walks a slide's `p:spTree` (into groups) and reads text shapes, tables, charts and pictures; the rest is skipped. */
export async function readShapes(zip: SafeZip, tree: XmlNode | undefined, rels: Relationships, budget: ImageBudget): Promise<ShapeFinding[]> {
  const found: ShapeFinding[] = [];
  for (const node of kids(tree)) {
    const tag = tagOf(node);
    if (tag === 'p:grpSp') found.push(...(await readShapes(zip, node, rels, budget)));
    else if (tag === 'p:sp') found.push(...textShape(node));
    else if (tag === 'p:graphicFrame') {
      const frame = await graphicFrame(zip, node, rels);
      if (frame) found.push(frame);
    } else if (tag === 'p:pic') {
      const picture = await pictureShape(zip, node, rels, budget);
      if (picture) found.push(picture);
    }
  }
  return found;
}

function textShape(sp: XmlNode): ShapeFinding[] {
  const type = attr(child(sp, 'p:nvSpPr', 'p:nvPr', 'p:ph'), 'type');
  if (type && CHROME.has(type)) return [];
  const body = paragraphs(child(sp, 'p:txBody'));
  if (type === 'title' || type === 'ctrTitle') return [{ kind: 'title', centered: type === 'ctrTitle', text: body.map(paragraphText).join('\n') }];
  if (body.length === 0) return [];
  return [type === 'subTitle' ? { kind: 'subtitle', paragraphs: body } : { kind: 'text', paragraphs: body }];
}

async function graphicFrame(zip: SafeZip, frame: XmlNode, rels: Relationships): Promise<ShapeFinding | undefined> {
  const data = child(frame, 'a:graphic', 'a:graphicData');
  const name = attr(child(frame, 'p:nvGraphicFramePr', 'p:cNvPr'), 'name') ?? '';
  const tbl = child(data, 'a:tbl');
  if (tbl) return { kind: 'table', name, table: readTable(tbl) };
  const chartRef = child(data, 'c:chart');
  const target = chartRef && rels.get(attr(chartRef, 'r:id') ?? '');
  if (!target) return undefined;
  const chart = readChart(await readPart(zip, target.path));
  return chart && { kind: 'chart', name, chart };
}

/**
 * A table's cell text, merged-away cells as empty strings so every row keeps the grid's width. The
 * first row is a header when the table says so (`firstRow`) or every one of its cells is bold.
 */
function readTable(tbl: XmlNode): Table {
  const rows = children(tbl, 'a:tr')
    .slice(0, MAX_TABLE_ROWS)
    .map((tr) =>
      children(tr, 'a:tc')
        .slice(0, MAX_TABLE_COLUMNS)
        .map((tc) => (attr(tc, 'hMerge') || attr(tc, 'vMerge') ? '' : paragraphs(child(tc, 'a:txBody')).map(paragraphText).join('\n'))),
    )
    .filter((row) => row.length > 0);
  const width = Math.max(1, ...rows.map((row) => row.length));
  const even = rows.length > 0 ? rows.map((row) => [...row, ...Array<string>(width - row.length).fill('')]) : [Array<string>(width).fill('')];
  const firstRow = children(tbl, 'a:tr')[0];
  const boldHeader = children(firstRow, 'a:tc').every((tc) => {
    const runs = descendants(child(tc, 'a:txBody'), 'a:rPr');
    return runs.length > 0 && runs.every((rPr) => attr(rPr, 'b') === '1' || attr(rPr, 'b') === 'true');
  });
  const flagged = attr(child(tbl, 'a:tblPr'), 'firstRow');
  return { header: flagged === '1' || flagged === 'true' || boldHeader, rows: even };
}

// Maps, not object literals: a tag or extension in the file (`constructor`, `toString`) must not find Object.prototype's members.
const CHART_TAGS = new Map<string, ChartType>([['c:barChart', 'bar'], ['c:bar3DChart', 'bar'], ['c:lineChart', 'line'], ['c:line3DChart', 'line'], ['c:pieChart', 'pie'], ['c:pie3DChart', 'pie'], ['c:doughnutChart', 'pie']]);

/** The first bar, line or pie plot of a chart part: its category labels and series values. */
function readChart(chartSpace: XmlNode | undefined): Chart | undefined {
  const chart = child(chartSpace, 'c:chart');
  const plot = kids(child(chart, 'c:plotArea')).find((node) => CHART_TAGS.has(tagOf(node) ?? ''));
  if (!plot) return undefined;
  const series = children(plot, 'c:ser');
  const labels = points(child(series[0], 'c:cat'));
  if (series.length === 0 || labels.length === 0) return undefined;
  const type = CHART_TAGS.get(tagOf(plot)!)!;
  const title = descendants(child(chart, 'c:title'), 'a:t').map(textOf).join('');
  return {
    type,
    ...(title ? { title } : {}),
    labels,
    series: (type === 'pie' ? series.slice(0, 1) : series).map((ser, i) => ({
      name: descendants(child(ser, 'c:tx'), 'c:v').map(textOf)[0] ?? `Series ${i + 1}`,
      values: labels.map((_, at) => Number(points(child(ser, 'c:val'))[at] ?? 0) || 0),
    })),
  };
}

/** The cached point values of a chart reference (`c:strCache`, `c:numCache`, or a multi-level cache's first level), by index. */
function points(ref: XmlNode | undefined): string[] {
  const cache = descendants(ref, 'c:strCache')[0] ?? descendants(ref, 'c:numCache')[0] ?? descendants(ref, 'c:lvl')[0];
  const out: string[] = [];
  for (const pt of children(cache, 'c:pt')) out[Number(attr(pt, 'idx') ?? out.length)] = textOf(child(pt, 'c:v'));
  return Array.from(out, (value) => value ?? '');
}

const EXTENSION_TYPES = new Map<string, ImageMediaType>([['png', 'image/png'], ['jpg', 'image/jpeg'], ['jpeg', 'image/jpeg'], ['gif', 'image/gif']]);

/** A png, jpeg or gif picture that fits the image limits, or undefined; one that does not is never inflated. */
async function pictureShape(zip: SafeZip, pic: XmlNode, rels: Relationships, budget: ImageBudget): Promise<ShapeFinding | undefined> {
  const target = rels.get(attr(child(pic, 'p:blipFill', 'a:blip'), 'r:embed') ?? '');
  const mediaType = target && EXTENSION_TYPES.get(target.path.split('.').pop()?.toLowerCase() ?? '');
  const entry = target && zip.entry(target.path);
  if (!mediaType || !entry || entry.size > Math.min(MAX_IMAGE_BYTES, budget.imageBytes)) return undefined;
  // SafeZip holds the entry to its declared size, so the budget counts what is really kept.
  budget.imageBytes -= entry.size;
  const cNvPr = child(pic, 'p:nvPicPr', 'p:cNvPr');
  return { kind: 'image', name: attr(cNvPr, 'name') ?? '', mediaType, data: await zip.read(entry), alt: attr(cNvPr, 'descr') ?? '' };
}
