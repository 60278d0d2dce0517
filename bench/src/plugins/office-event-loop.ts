/**
 * How long office exports block the host's event loop. Through a real Host, a 20-slide deck with a
 * photo-sized picture on every other slide is exported to pptx, pdf and png, and a 30-page
 * document with six pictures to docx, pdf and png; then `office_preview` and `office_lint` run on
 * each. Every timed run exports a new revision, so LibreOffice renders are cold. While each runs, a
 * 1 ms timer measures how late the loop gets to it: the worst delay is the longest stall a request
 * such as `/api/health` would have waited behind. The first row is the same measure over an idle
 * loop, the floor of what the machine itself adds.
 *
 * `COWORK_OFFICE_WORKERS=0` runs the plugin's parsing and serialisation on the calling thread (the
 * path before they moved to worker threads): `npm run bench:office-loop` runs both, in-thread
 * first, so the two tables compare. Both start LibreOffice and poppler through the plugin's program
 * runner and write files asynchronously, so the in-thread figures are somewhat lower than the
 * plugin's before the change. BENCH_OFFICE_RUNS (default 3) runs per row; the worst and p99
 * columns are over all of a row's runs. Prints figures; asserts nothing.
 */
import { crc32, deflateSync } from 'node:zlib';
import { openTempHost, type Host, type Json, type ToolContext } from '@cowork/host';
import { plugin } from '@cowork/plugin-office';
import { machineLine } from '../runtime/report';
import { formatTable, ms } from '../server/table';
import { summarizeLatencies } from '../stats';

const RUNS = Number(process.env.BENCH_OFFICE_RUNS ?? 3);
const SLIDES = 20;
const PAGES = 30;
const IDLE_MS = 10_000;

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
  const host = await openTempHost({ plugins: [plugin], prefix: 'cowork-bench-office-loop-' });
  const rows: Row[] = [row('idle loop', `${IDLE_MS} ms`, [await sample(() => new Promise((resolve) => setTimeout(resolve, IDLE_MS)))])];
  try {
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
    console.log(`office exports: event-loop delay while each runs (COWORK_OFFICE_WORKERS=${workers ?? 'unset: worker threads'}), ${RUNS} cold runs per row`);
    console.log(machineLine());
    console.log(formatTable(['subject', 'export', 'median ms', 'max ms', 'worst loop delay ms', 'p99 loop delay ms'], rows, 2));
  } finally {
    await host.dispose();
  }
}

function row(subject: string, what: string, samples: readonly Sample[]): Row {
  const time = summarizeLatencies(samples.map((s) => s.ms));
  return [subject, what, ms(time.p50Ms), ms(time.maxMs), ms(Math.max(...samples.map((s) => s.worstMs))), ms(Math.max(...samples.map((s) => s.p99Ms)))];
}

/** `RUNS` samples of `measure`, each after an untimed `prepare`. */
async function runs(prepare: () => Promise<void>, measure: () => Promise<unknown>): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
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
