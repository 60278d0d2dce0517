/**
 * The office presentation's file round trip through a real Host: pptx export of a 20-slide deck
 * (bullets with styled runs, a table, a bar chart and a png on every fifth slide), and import of
 * that file back into a new resource (parse, schema check, store). Also prints the file size and
 * the summary's size, which a model reads instead of the content.
 *
 * BENCH_OFFICE_SAMPLES (default 10), after 2 warm-up rounds. Prints figures; asserts nothing.
 */
import { openTempHost } from '@cowork/host/testkit';
import { plugin, type Presentation, type Slide } from '@cowork/plugin-office';
import { latencyLine } from '../stats';

const SAMPLES = Number(process.env.BENCH_OFFICE_SAMPLES ?? 10);
const WARMUP = 2;

/** A 1 x 1 grey png. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4AWNoAAIABQUCAZgGIWMAAAAASUVORK5CYII=';

function deck(): Presentation {
  const slides: Slide[] = Array.from({ length: 20 }, (_, i) => ({
    id: `slide-${i + 1}`,
    layout: i === 0 ? 'title' : 'title_and_bullets',
    title: `Slide ${i + 1}: quarterly topic number ${i + 1}`,
    bullets: [
      { text: 'A first point with a bold lead', level: 0, runs: [{ text: 'A first point', bold: true }, { text: ' with a bold lead' }] },
      { text: 'A detail under it', level: 1 },
      { text: 'A second point', level: 0 },
    ],
    elements:
      i % 5 === 4
        ? [
            { id: 'numbers', type: 'table', table: { header: true, rows: [['Team', 'Q1', 'Q2'], ['A', '1', '2'], ['B', '3', '4']] } },
            { id: 'trend', type: 'chart', chart: { type: 'bar', labels: ['Jan', 'Feb', 'Mar'], series: [{ name: 'Sales', values: [1, 2, 3] }] } },
            { id: 'picture', type: 'image', image: { src: PNG, alt: 'A grey picture' } },
          ]
        : [],
    notes: `Speaker notes for slide ${i + 1}.`,
  }));
  return { title: 'Benchmark deck', slides };
}

async function main(): Promise<void> {
  const host = await openTempHost({ plugins: [plugin], prefix: 'cowork-bench-office-' });
  const exports: number[] = [];
  const imports: number[] = [];
  let bytes = 0;
  try {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:bench' });
    const summary = await host.resources.summarize(r.id);
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      let started = performance.now();
      const file = await host.exports.export(r.id, 'pptx');
      const exported = performance.now() - started;
      const data = file.data as Uint8Array;
      bytes = data.byteLength;
      started = performance.now();
      const imported = await host.imports.importFile({ kind: 'office.presentation', data, fileName: 'bench.pptx', operator: 'human:bench' });
      const elapsed = performance.now() - started;
      if ((imported.content as Presentation).slides.length !== 20) throw new Error('the import lost slides');
      if (i >= WARMUP) {
        exports.push(exported);
        imports.push(elapsed);
      }
    }
    const show = (name: string, samples: number[]): void => console.log(latencyLine(name, samples, 22));
    console.log(`office.presentation, 20 slides, ${SAMPLES} samples`);
    show('pptx export', exports);
    show('pptx import (create)', imports);
    console.log(`pptx size              ${(bytes / 1024).toFixed(1)} KiB`);
    console.log(`summary                ${summary.length} chars (~${Math.round(summary.length / 4)} tokens)`);
  } finally {
    await host.dispose();
  }
}

void main();
