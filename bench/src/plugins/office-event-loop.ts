/**
 * How long office work blocks the host's event loop. Through a real Host, a 20-slide deck with a
 * photo-sized picture on every other slide is exported to pptx, pdf and png, and a 30-page
 * document with six pictures to docx, pdf and png; then `office_preview` and `office_lint` run on
 * each. Every timed run exports a new revision, so LibreOffice renders are cold. While each runs, a
 * 1 ms timer measures how late the loop gets to it: the worst delay is the longest stall a request
 * such as `/api/health` would have waited behind. The first row is the same measure over an idle
 * loop, the floor of what the machine itself adds. Then large docx and pptx files are imported
 * (see importRows), and the deck and the document are saved (see saveRows).
 *
 * `COWORK_OFFICE_WORKERS=0` runs the plugin's parsing and serialisation on the calling thread (the
 * path before they moved to worker threads): `npm run bench:office-loop` runs both, in-thread
 * first, so the two tables compare. Both start LibreOffice and poppler through the plugin's program
 * runner and write files asynchronously, so the in-thread figures are somewhat lower than the
 * plugin's before the change. BENCH_OFFICE_RUNS (default 3) runs per row (saves: 10); the worst
 * and p99 columns are over all of a row's runs. BENCH_OFFICE_ROWS (default
 * `exports,imports,saves`) picks the groups of rows. Prints figures; asserts nothing.
 */
import { crc32, deflateSync } from 'node:zlib';
import { SafeZip, type Json, type ToolContext } from '@cowork/host';
import { type Host } from '@cowork/host/embed';
import { openTempHost } from '@cowork/host/testkit';
import { plugin } from '@cowork/plugin-office';
import { machineLine } from '../runtime/report';
import { formatTable, ms } from '../server/table';
import { summarizeLatencies } from '../stats';

const RUNS = Number(process.env.BENCH_OFFICE_RUNS ?? 3);
const SLIDES = 20;
const PAGES = 30;
const IDLE_MS = 10_000;
/** Commits per save row: each is short, so more of them. */
const SAVE_RUNS = 10;
const MiB = 1024 * 1024;

type Row = [string, string, string, string, string, string];

interface Subject {
  readonly label: string;
  readonly kind: string;
  readonly office: string;
  readonly content: Json;
  /** An op that makes a new revision with different content (so the next render is cold). */
  readonly touch: (i: number) => Json;
}

/** One measured call: its duration and the event loop's worst and p99 delay while it ran. */
interface Sample {
  readonly ms: number;
  readonly worstMs: number;
  readonly p99Ms: number;
}

async function main(): Promise<void> {
  const workers = process.env.COWORK_OFFICE_WORKERS;
  const groups = new Set((process.env.BENCH_OFFICE_ROWS ?? 'exports,imports,saves').split(',').map((g) => g.trim()));
  const host = await openTempHost({ plugins: [plugin], prefix: 'cowork-bench-office-loop-' });
  const rows: Row[] = [row('idle loop', `${IDLE_MS} ms`, [await sample(() => new Promise((resolve) => setTimeout(resolve, IDLE_MS)))])];
  try {
    if (groups.has('exports')) await exportRows(host, rows);
    if (groups.has('imports')) await importRows(host, rows);
    if (groups.has('saves')) await saveRows(host, rows);
    console.log(`office work: event-loop delay while each runs (COWORK_OFFICE_WORKERS=${workers ?? 'unset: worker threads'}), ${RUNS} runs per row (exports cold)`);
    console.log(machineLine());
    console.log(formatTable(['subject', 'work', 'median ms', 'max ms', 'worst loop delay ms', 'p99 loop delay ms'], rows, 2));
  } finally {
    await host.dispose();
  }
}

async function exportRows(host: Host, rows: Row[]): Promise<void> {
  for (const subject of [deckSubject(), documentSubject()]) {
    const r = await host.resources.create({ kind: subject.kind, content: subject.content, operator: 'human:bench' });
    let revision = r.revision;
    let touches = 0;
    const fresh = async (): Promise<void> => {
      revision = (await host.resources.commit(r.id, { baseRevision: revision, op: subject.touch(touches++), operator: 'human:bench' })).revision;
    };
    // One untimed export first: modules load and the first soffice warms the disk cache.
    await host.exports.export(r.id, 'pdf');
    for (const format of [subject.office, 'pdf', 'png']) {
      rows.push(row(subject.label, format, await runs(fresh, () => host.exports.export(r.id, format))));
    }
    for (const tool of ['office_preview', 'office_lint']) {
      rows.push(row(subject.label, tool, await runs(fresh, () => callTool(host, tool, { resourceId: r.id }))));
    }
  }
}

/**
 * Imports of large files: a docx whose parts unpack to about 4 MiB and one near the 8 MiB limit
 * (text with styled runs, lists, tables and a few pictures), and a pptx near the limit. Each is
 * made by the plugin's own export, then imported twice per run: by the plugin's importer alone
 * (reading the zip and parsing its XML), and through the host (the importer, then the host's
 * checks and write of the new resource), which is what `POST /api/resources/import` does.
 */
async function importRows(host: Host, rows: Row[]): Promise<void> {
  const files = [
    await importFile(host, 'office.document', 'docx', 4 * MiB, bigDocument),
    await importFile(host, 'office.document', 'docx', 7.5 * MiB, bigDocument),
    await importFile(host, 'office.presentation', 'pptx', 7.5 * MiB, bigDeck),
  ];
  const noop = async (): Promise<void> => {};
  for (const file of files) {
    const importer = plugin.kinds.find((k) => k.name === file.kind)!.imports![file.format]!;
    const context = { fileName: `big.${file.format}`, workDir: host.workspaceDir, signal: new AbortController().signal, maxContentBytes: 8 * MiB };
    await importer.import(file.data, context); // untimed: modules load, workers start
    rows.push(row(file.label, `${file.format} import (plugin)`, await runs(noop, () => importer.import(file.data, context))));
    rows.push(row(file.label, `${file.format} import (host)`, await runs(noop, () => host.imports.importFile({ kind: file.kind, data: file.data, fileName: `big.${file.format}`, operator: 'human:bench' }))));
  }
}

/**
 * Saves of a deck and a document with pictures: each commit changes a title, and the host runs
 * the kind's checks on the whole content (its pictures' base64 included) before writing it. The
 * second row is the kind's checks alone, on a copy of the content read back from JSON each time
 * (as a commit's content is a new object, not the one checked before).
 */
async function saveRows(host: Host, rows: Row[]): Promise<void> {
  for (const subject of [deckSubject(), documentSubject()]) {
    const r = await host.resources.create({ kind: subject.kind, content: subject.content, operator: 'human:bench' });
    let revision = r.revision;
    let touches = 0;
    const commit = async (): Promise<void> => {
      revision = (await host.resources.commit(r.id, { baseRevision: revision, op: subject.touch(touches++), operator: 'human:bench' })).revision;
    };
    await commit();
    const label = `${subject.label} (${(JSON.stringify(subject.content).length / MiB).toFixed(1)} MB)`;
    rows.push(row(label, 'save (commit)', await runs(async () => {}, commit, SAVE_RUNS)));
    const kind = plugin.kinds.find((k) => k.name === subject.kind)!;
    const text = JSON.stringify(subject.content);
    let copy: Json = null;
    const context = { signal: new AbortController().signal, resources: host.resources };
    const check = async (): Promise<void> => {
      const problems = await kind.checkContent!(copy, context);
      if (problems.length > 0) throw new Error(`the bench's ${subject.kind} has problems: ${problems.join('; ')}`);
    };
    rows.push(row(label, "the kind's checks", await runs(async () => void (copy = JSON.parse(text) as Json), check, SAVE_RUNS)));
  }
}

interface ImportSubject {
  readonly label: string;
  readonly kind: string;
  readonly format: string;
  readonly data: Uint8Array;
}

/**
 * A file of `format` whose parts unpack to about `target` bytes: `make(n)` builds a content of
 * `n` units, exported once to learn the bytes per unit, then again at the size that fits.
 */
async function importFile(host: Host, kind: string, format: string, target: number, make: (n: number) => Json): Promise<ImportSubject> {
  const exported = async (n: number): Promise<{ data: Uint8Array; unpacked: number }> => {
    const r = await host.resources.create({ kind, content: make(n), operator: 'human:bench' });
    const { data } = await host.exports.export(r.id, format);
    return { data, unpacked: SafeZip.open(data, { maxEntryBytes: Infinity, maxTotalBytes: Infinity }, format).entries.reduce((sum, e) => sum + e.size, 0) };
  };
  // Pictures and fixed parts make the size grow slower than n: three rounds of scaling land near the target.
  let n = 100;
  let file = await exported(n);
  for (let round = 0; round < 3 && Math.abs(file.unpacked - target) > target / 50; round++) {
    n = Math.max(1, Math.floor((n * target) / file.unpacked));
    file = await exported(n);
  }
  return { label: `${format}, ${(file.data.byteLength / MiB).toFixed(1)} MB file, ${(file.unpacked / MiB).toFixed(1)} MiB unpacked`, kind, format, data: file.data };
}

/** `n` sections of styled paragraphs, a list and a table, a picture every 40 sections (at most 4). */
function bigDocument(n: number): Json {
  const blocks: Json[] = [];
  for (let i = 1; i <= n; i++) {
    blocks.push({ id: `h-${i}`, type: 'heading', level: 2, runs: [{ text: `Section ${i}` }] });
    for (const part of ['a', 'b']) {
      blocks.push({
        id: `p-${i}-${part}`,
        type: 'paragraph',
        runs: [{ text: 'The regional figures for this period were gathered ' }, { text: 'on the same template', bold: true }, { text: ' and checked twice, so they compare; ' }, { text: 'see the table below.', italic: true }],
      });
    }
    blocks.push({ id: `l-${i}`, type: 'list', ordered: i % 2 === 0, items: [{ runs: [{ text: `Point ${i}.1` }], level: 0 }, { runs: [{ text: `Detail ${i}.1.1` }], level: 1 }] });
    blocks.push({ id: `t-${i}`, type: 'table', table: { header: true, rows: [['Region', 'Q1', 'Q2'], ['North', String(i), String(i + 1)]] } });
    if (i % 40 === 0 && i <= 160) blocks.push({ id: `img-${i}`, type: 'image', image: { src: photoDataUri(400, 300, i), alt: `Figure ${i}`, widthIn: 4 } });
  }
  return { title: 'Large report', page: { size: 'A4', orientation: 'portrait', marginsMm: { top: 25, right: 25, bottom: 25, left: 25 } }, blocks };
}

/** `n` slides of bullets with styled runs, a table every fifth slide, a picture every 50th (at most 4), notes. */
function bigDeck(n: number): Json {
  const slides = Array.from({ length: n }, (_, i): Json => ({
    id: `s${i + 1}`,
    layout: 'title_and_bullets',
    title: `Topic ${i + 1}: what changed`,
    bullets: Array.from({ length: 6 }, (_, b): Json => ({ text: `Point ${b + 1} of slide ${i + 1}: the figures moved`, level: b % 2, runs: [{ text: `Point ${b + 1} of slide ${i + 1}: ` }, { text: 'the figures moved', bold: true }] })),
    elements:
      i % 50 === 49 && i < 200
        ? [{ id: `photo-${i}`, type: 'image', image: { src: photoDataUri(400, 300, i), alt: `Photo ${i}` } }]
        : i % 5 === 2
          ? [{ id: `numbers-${i}`, type: 'table', table: { header: true, rows: [['Region', 'Q1', 'Q2'], ['North', '12', '14'], ['South', '9', '11']] } }]
          : [],
    notes: `Speaker notes for slide ${i + 1}.`,
  }));
  return { title: 'Large deck', slides };
}

function row(subject: string, what: string, samples: readonly Sample[]): Row {
  const time = summarizeLatencies(samples.map((s) => s.ms));
  return [subject, what, ms(time.p50Ms), ms(time.maxMs), ms(Math.max(...samples.map((s) => s.worstMs))), ms(Math.max(...samples.map((s) => s.p99Ms)))];
}

/** `count` samples of `measure`, each after an untimed `prepare`. */
async function runs(prepare: () => Promise<void>, measure: () => Promise<unknown>, count = RUNS): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    await prepare();
    samples.push(await sample(measure));
  }
  return samples;
}

async function sample(measure: () => Promise<unknown>): Promise<Sample> {
  const loop = loopSampler();
  const started = performance.now();
  await measure();
  const elapsed = performance.now() - started;
  const delays = loop.stop();
  const sorted = Float64Array.from(delays).sort();
  return { ms: elapsed, worstMs: sorted[sorted.length - 1] ?? 0, p99Ms: sorted[Math.ceil(sorted.length * 0.99) - 1] ?? 0 };
}

/**
 * Asks for a timer every `TICK_MS` and records how late each one fires: the delay a request would
 * have waited for the loop. Unlike `monitorEventLoopDelay`, a stall that lasts until the end of the
 * measurement (no timer fired inside it at all) counts too: `stop` closes the last gap.
 */
function loopSampler(): { stop: () => number[] } {
  const TICK_MS = 1;
  const delays: number[] = [];
  let due = performance.now() + TICK_MS;
  let timer = setTimeout(function tick() {
    const now = performance.now();
    delays.push(Math.max(0, now - due));
    due = now + TICK_MS;
    timer = setTimeout(tick, TICK_MS);
  }, TICK_MS);
  return {
    stop: () => {
      clearTimeout(timer);
      delays.push(Math.max(0, performance.now() - due));
      return delays;
    },
  };
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
    bullets: Array.from({ length: i === 0 ? 1 : 4 }, (_, b) => ({ text: `Point ${b + 1} of slide ${i + 1}, short enough for one line`, level: b % 2 })),
    elements:
      i % 2 === 1
        ? [{ id: `photo-${i}`, type: 'image', image: { src: photoDataUri(720, 405, i), alt: `Site photo ${i}` } }]
        : i % 4 === 2
          ? [{ id: `numbers-${i}`, type: 'table', table: { header: true, rows: [['Region', 'Q1', 'Q2'], ['North', '12', '14'], ['South', '9', '11']] } }]
          : [],
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

/** Sections separated by page breaks: `PAGES` pages, a picture on every fifth and a table on every third. */
function documentSubject(): Subject {
  const text = 'The figures were gathered over the quarter and checked twice; each region reported on the same template so that the numbers compare.';
  const blocks: Json[] = [];
  for (let page = 1; page <= PAGES; page++) {
    if (page > 1) blocks.push({ id: `break-${page}`, type: 'page_break' });
    blocks.push({ id: `h-${page}`, type: 'heading', level: 1, runs: [{ text: `Section ${page}` }] });
    blocks.push({ id: `p-${page}`, type: 'paragraph', runs: [{ text: `${text} ${text} ${text}` }] });
    if (page % 5 === 0) blocks.push({ id: `img-${page}`, type: 'image', image: { src: photoDataUri(800, 600, 100 + page), alt: `Figure ${page}`, widthIn: 5 } });
    if (page % 3 === 0) blocks.push({ id: `t-${page}`, type: 'table', table: { header: true, rows: [['Item', 'Value'], [`Row ${page}`, String(page * 10)]] } });
  }
  return {
    label: `document, ${PAGES} pages`,
    kind: 'office.document',
    office: 'docx',
    content: { title: 'Field report', page: { size: 'A4', orientation: 'portrait', marginsMm: { top: 25, right: 25, bottom: 25, left: 25 } }, blocks },
    touch: (i) => ({ type: 'set_title', title: `Field report (${i})` }),
  };
}

/**
 * A PNG that compresses about as badly as a photo (smooth colour with per-pixel noise, several
 * hundred KB), distinct per `seed` so that no two pictures of a file are the same. Written here
 * with zlib so that the bench needs no image library.
 */
function photoDataUri(width: number, height: number, seed: number): string {
  let state = Math.imul(seed, 2654435761) >>> 0;
  const noise = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 24) % 8;
  };
  // Each row is written with PNG's Sub filter (each byte less the one a pixel to its left), as
  // encoders do for photos: the smooth gradient then costs little and the noise sets the size.
  const row = Buffer.alloc(width * 3);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      row[x * 3] = ((x * 200) / width + seed * 13 + noise()) & 0xff;
      row[x * 3 + 1] = ((y * 180) / height + 40 + noise()) & 0xff;
      row[x * 3 + 2] = (((x + y) * 120) / (width + height) + 90 + noise()) & 0xff;
    }
    const line = y * (width * 3 + 1);
    raw[line] = 1;
    for (let i = 0; i < row.length; i++) raw[line + 1 + i] = (row[i]! - (i >= 3 ? row[i - 3]! : 0)) & 0xff;
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filtering, no interlace
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
