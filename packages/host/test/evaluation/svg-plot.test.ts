import { lineChart, tickDigits } from '../../src/evaluation/svg-plot';

const yLabels = (svg: string): string[] => [...svg.matchAll(/<text x="42" y="[\d.]+" text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]!);

describe('line chart y ticks', () => {
  test('keep each quarter of the axis distinct, whatever its scale', () => {
    const loss = lineChart({ title: 'loss', points: [{ x: 10, y: 2.55 }, { x: 20, y: 0.4 }, { x: 30, y: 0.001 }], xLabel: 'step', yLabel: 'loss', yMax: 2.55 });
    expect(yLabels(loss)).toEqual(['0.00', '0.64', '1.27', '1.91', '2.55']);
    const small = lineChart({ title: 'loss', points: [{ x: 1, y: 0.02 }], xLabel: 'step', yLabel: 'loss', yMax: 0.02 });
    expect(yLabels(small)).toEqual(['0.0000', '0.0050', '0.0100', '0.0150', '0.0200']);
    const percent = lineChart({ title: 'rate', points: [{ x: 1, y: 50 }], xLabel: 'round', yLabel: '%', yMax: 100 });
    expect(yLabels(percent)).toEqual(['0', '25', '50', '75', '100']);
  });

  test('digits by scale, none for an empty or broken axis', () => {
    expect([1000, 100, 10, 1, 0.5, 0.01, 1e-9].map(tickDigits)).toEqual([0, 0, 1, 2, 3, 4, 4]);
    expect([0, -1, Number.NaN, Number.POSITIVE_INFINITY].map(tickDigits)).toEqual([0, 0, 0, 0]);
  });
});
