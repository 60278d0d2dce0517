import PptxGenJS from 'pptxgenjs';
import type { Chart } from '../shared/chart';
import type { Run, RunStyle } from '../shared/runs';
import type { Table } from '../shared/table';
import type { Bullet, Box, Presentation, Slide } from './content';
import { keepFirstParagraphProperties } from './pptx-fixup';
import { MASTERS, elementBoxes, masterFor, type MasterName } from './pptx-layout';

export const PPTX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/**
 * Renders a deck to pptx bytes in memory with pptxgenjs (16:9, one pptx slide per slide). Titles
 * and bullets go into title and body placeholders of named layouts, images, tables and charts
 * into the space left, notes into speaker notes. Blank slides keep their elements and notes.
 */
export async function renderPptx(deck: Presentation): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_16x9';
  pptx.title = deck.title;
  for (const name of Object.keys(MASTERS) as MasterName[]) defineMaster(pptx, name);
  for (const slide of deck.slides) addSlide(pptx, slide);
  const data = await pptx.write({ outputType: 'nodebuffer' });
  if (!(data instanceof Uint8Array)) throw new Error('pptxgenjs did not return bytes for outputType nodebuffer');
  return keepFirstParagraphProperties(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function defineMaster(pptx: PptxGenJS, name: MasterName): void {
  const { title, body } = MASTERS[name];
  const objects: PptxGenJS.SlideMasterProps['objects'] = [];
  for (const [key, box] of [['title', title], ['body', body]] as const) {
    if (!box) continue;
    objects.push({
      placeholder: {
        options: { name: key, type: key, x: box.x, y: box.y, w: box.w, h: box.h, fontSize: box.fontSize, bold: key === 'title', align: box.centered ? 'center' : 'left', valign: key === 'title' && !box.centered ? 'middle' : 'top' },
        text: '',
      },
    });
  }
  pptx.defineSlideMaster({ title: name, objects });
}

function addSlide(pptx: PptxGenJS, slide: Slide): void {
  const master = masterFor(slide);
  const out = pptx.addSlide({ masterName: master });
  if (slide.notes) out.addNotes(slide.notes);
  if (MASTERS[master].title) out.addText(slide.title, { placeholder: 'title', ...styleProps(slide.titleStyle ?? {}) });
  if (MASTERS[master].body) out.addText(bulletRuns(slide.bullets, slide.layout === 'title'), { placeholder: 'body' });
  const boxes = elementBoxes(slide, master);
  (slide.elements ?? []).forEach((element, i) => {
    const box = boxes[i]!;
    if (element.type === 'image') out.addImage({ data: element.image.src, altText: element.image.alt, objectName: element.id, ...box });
    else if (element.type === 'table') addTable(out, element.table, box, element.id);
    else addChart(pptx, out, element.chart, box, element.id);
  });
}

/** One paragraph per bullet: its first run carries the bullet and level, its last ends the line. */
function bulletRuns(bullets: readonly Bullet[], subtitle: boolean): PptxGenJS.TextProps[] {
  return bullets.flatMap((bullet) => {
    const runs: readonly Run[] = bullet.runs && bullet.runs.length > 0 ? bullet.runs : [{ text: bullet.text }];
    return runs.map((run, i) => ({
      text: run.text,
      options: {
        ...styleProps(run),
        ...(i === 0 ? { bullet: subtitle ? false : true, indentLevel: bullet.level } : {}),
        ...(i === runs.length - 1 ? { breakLine: true } : {}),
      },
    }));
  });
}

function styleProps(style: RunStyle): PptxGenJS.TextPropsOptions {
  return {
    ...(style.bold ? { bold: true } : {}),
    ...(style.italic ? { italic: true } : {}),
    ...(style.underline ? { underline: { style: 'sng' as const } } : {}),
    ...(style.color ? { color: style.color } : {}),
    ...(style.size ? { fontSize: style.size } : {}),
    ...(style.font ? { fontFace: style.font } : {}),
  };
}

function addTable(out: PptxGenJS.Slide, table: Table, box: Box, objectName: string): void {
  const rows: PptxGenJS.TableRow[] = table.rows.map((row, r) =>
    row.map((cell) => (table.header && r === 0 ? { text: cell, options: { bold: true, fill: { color: 'D9E2F3' } } } : { text: cell })),
  );
  const fontSize = Math.max(8, Math.min(14, Math.floor((box.h * 72) / (table.rows.length * 2))));
  out.addTable(rows, { x: box.x, y: box.y, w: box.w, fontSize, border: { type: 'solid', pt: 0.5, color: '808080' }, autoPage: false, objectName });
}

function addChart(pptx: PptxGenJS, out: PptxGenJS.Slide, chart: Chart, box: Box, objectName: string): void {
  const type = chart.type === 'bar' ? pptx.ChartType.bar : chart.type === 'line' ? pptx.ChartType.line : pptx.ChartType.pie;
  const data = chart.series.map((series) => ({ name: series.name, labels: chart.labels, values: series.values }));
  out.addChart(type, data, {
    ...box,
    ...(chart.title ? { showTitle: true, title: chart.title } : {}),
    showLegend: chart.type === 'pie' || chart.series.length > 1,
    legendPos: 'b',
    objectName,
  });
}
