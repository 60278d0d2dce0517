/**
 * Export times of the office plugin through a real Host: a 20-slide deck to pptx, pdf and png,
 * and a 30-page document to docx, pdf and png; then the office_preview tool (LibreOffice render,
 * page PNGs written to the workspace) per page. pdf and png go through LibreOffice and poppler.
 *
 * Every timed run exports a new revision (a one-op commit before it), so renders are cold: the
 * plugin caches renders per content, and a repeated export of one revision costs only the cache
 * hit, shown on its own row ("png after pdf"). The document rows appear when the plugin has the
 * `office.document` kind with pdf and png exports.
 *
 * BENCH_OFFICE_RUNS (default 3) runs per row. Prints figures; asserts nothing.
 */
import { type Json, type ToolContext } from '@cowork/host';
import { type Host } from '@cowork/host/embed';
import { openTempHost } from '@cowork/host/testkit';
import { plugin } from '@cowork/plugin-office';
import { machineLine } from '../runtime/report';
import { formatTable, ms } from '../server/table';
import { summarizeLatencies } from '../stats';

const RUNS = Number(process.env.BENCH_OFFICE_RUNS ?? 3);
const SLIDES = 20;
const PAGES = 30;

interface Subject {
  readonly label: string;
  readonly kind: string;
  readonly office: string;
  readonly content: Json;
  /** An op that makes a new revision with different content (so the next render is cold). */
  readonly touch: (i: number) => Json;
}

type Row = [string, string, string, string, string, string];

async function main(): Promise<void> {
  const host = await openTempHost({ plugins: [plugin], prefix: 'cowork-bench-office-' });
  const rows: Row[] = [];
  try {
    for (const subject of [deckSubject(), documentSubject()]) {
      const formats = Object.keys(host.registry.kinds().find((k) => k.kind.name === subject.kind)?.kind.exports ?? {});
      if (!formats.includes('pdf') || !formats.includes('png')) {
        console.log(`${subject.kind}: not loaded or without pdf/png exports; skipped`);
        continue;
      }
      const r = await host.resources.create({ kind: subject.kind, content: subject.content, operator: 'human:bench' });
      let revision = r.revision;
      let touches = 0;
      const fresh = async (): Promise<void> => {
        revision = (await host.resources.commit(r.id, { baseRevision: revision, op: subject.touch(touches++), operator: 'human:bench' })).revision;
      };
      const pages = await pageCount(host, r.id);
      for (const format of [subject.office, 'pdf', 'png']) {
        rows.push(row(subject.label, format, pages, await timed(RUNS, fresh, () => host.exports.export(r.id, format))));
      }
      rows.push(
        row(subject.label, 'png after pdf (cached)', pages, await timed(RUNS, async () => {
          await fresh();
          await host.exports.export(r.id, 'pdf');
        }, () => host.exports.export(r.id, 'png'))),
      );
      const preview = await timed(RUNS, fresh, () => callTool(host, 'office_preview', { resourceId: r.id }));
      rows.push(row(subject.label, 'office_preview', pages, preview));
      rows.push(row(subject.label, 'office_preview per page', pages, preview.map((t) => t / pages)));
    }
    console.log(`office exports: cold renders (a new revision per run), ${RUNS} runs per row`);
    console.log(machineLine());
    console.log(formatTable(['subject', 'export', 'pages', 'median ms', 'min ms', 'max ms'], rows, 2));
  } finally {
    await host.dispose();
  }
}

function row(subject: string, format: string, pages: number, samples: number[]): Row {
  const s = summarizeLatencies(samples);
  return [subject, format, String(pages), ms(s.p50Ms), ms(Math.min(...samples)), ms(s.maxMs)];
}

/** `runs` timings of `measure`, each after an untimed `prepare`. */
async function timed(runs: number, prepare: () => Promise<void>, measure: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    await prepare();
    const started = performance.now();
    await measure();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function pageCount(host: Host, resourceId: string): Promise<number> {
  const result = (await callTool(host, 'office_preview', { resourceId })) as { pageCount: number };
  return result.pageCount;
}

async function callTool(host: Host, name: string, input: Json): Promise<Json> {
  const tool = plugin.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`the office plugin has no tool ${name}`);
  const context: ToolContext = { operator: 'agent:bench', signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } };
  const result = await tool.handler(input, context);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.content;
}

function deckSubject(): Subject {
  const slides = Array.from({ length: SLIDES }, (_, i) => ({
    id: `s${i + 1}`,
    layout: i === 0 ? 'title' : 'title_and_bullets',
    title: i === 0 ? 'Quarterly business review' : `Topic ${i}: what changed this quarter`,
    bullets: Array.from({ length: i === 0 ? 1 : 5 }, (_, b) => ({ text: `Point ${b + 1} of slide ${i + 1}, short enough for one line`, level: b % 2 })),
    notes: `Speaker notes for slide ${i + 1}.`,
  }));
  return {
    label: `deck, ${SLIDES} slides`,
    kind: 'office.presentation',
    office: 'pptx',
    content: { title: 'Quarterly business review', slides },
    touch: (i) => ({ type: 'set_deck_title', title: `Quarterly business review (${i})` }),
  };
}

/** Sections separated by page breaks, each well short of a page: `PAGES` pages. */
function documentSubject(): Subject {
  const text = 'The figures were gathered over the quarter and checked twice; each region reported on the same template so that the numbers compare.';
  const blocks: Json[] = [];
  for (let page = 1; page <= PAGES; page++) {
    if (page > 1) blocks.push({ id: `break-${page}`, type: 'page_break' });
    blocks.push({ id: `h-${page}`, type: 'heading', level: 1, runs: [{ text: `Section ${page}` }] });
    blocks.push({ id: `p-${page}`, type: 'paragraph', runs: [{ text: `${text} ${text}` }] });
    if (page % 5 === 0) blocks.push({ id: `t-${page}`, type: 'table', table: { header: true, rows: [['Item', 'Value'], [`Row ${page}`, String(page * 10)]] } });
  }
  return {
    label: `document, ${PAGES} pages`,
    kind: 'office.document',
    office: 'docx',
    content: { title: 'Field report', page: { size: 'A4', orientation: 'portrait', marginsMm: { top: 25, right: 25, bottom: 25, left: 25 } }, blocks },
    touch: (i) => ({ type: 'set_title', title: `Field report (${i})` }),
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
