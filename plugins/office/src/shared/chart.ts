/**
 * A chart shared by presentations and documents: category labels and one or more named series of
 * numbers, one value per label. A pie shows one series.
 */
export type ChartType = 'bar' | 'line' | 'pie';
export type ChartSeries = { name: string; values: number[] };
export type Chart = { type: ChartType; title?: string; labels: string[]; series: ChartSeries[] };

export const CHART_TYPES: readonly ChartType[] = ['bar', 'line', 'pie'];
export const MAX_CHART_POINTS = 500;

export const CHART_SCHEMA = {
  type: 'object',
  properties: {
    type: { enum: [...CHART_TYPES] },
    title: { type: 'string' },
    labels: { type: 'array', minItems: 1, maxItems: MAX_CHART_POINTS, items: { type: 'string' } },
    series: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, values: { type: 'array', maxItems: MAX_CHART_POINTS, items: { type: 'number' } } },
        required: ['name', 'values'],
        additionalProperties: false,
      },
    },
  },
  required: ['type', 'labels', 'series'],
  additionalProperties: false,
} as const;

/** Problems the schema cannot see: a series whose length differs from the labels, a pie of several series. */
export function chartProblems(chart: Chart): string[] {
  const problems = chart.series.flatMap((series, i) =>
    series.values.length === chart.labels.length
      ? []
      : [`chart series ${i} (${JSON.stringify(series.name)}) has ${series.values.length} values but there are ${chart.labels.length} labels; give one value per label`],
  );
  if (chart.type === 'pie' && chart.series.length !== 1) problems.push(`a pie chart shows exactly one series, not ${chart.series.length}; use a bar chart to compare series`);
  if (chart.type === 'pie' && chart.series[0]?.values.some((v) => v < 0)) problems.push('a pie chart cannot show negative values');
  return problems;
}
