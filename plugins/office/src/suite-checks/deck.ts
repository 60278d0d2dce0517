/**
 * Checks on a deck's content, as a person reading the slides would: which slides there are and in
 * what order, what a slide says, its notes, its table and chart, and that slides nobody asked to
 * change are as they were.
 */
import { jsonEqual, type Json, type SuiteCheck } from '@cowork/host';
import type { Chart } from '../shared/chart';
import type { Table } from '../shared/table';
import type { Presentation, SlideLayout } from '../presentation/content';
import { argsOf, deckOf, inOrder, quote, resourceOf, sameRows, sameTexts, slideTitled, verdict } from './common';

/** The slides' titles, in order, are exactly these. */
const slideTitles: SuiteCheck = (context, args) => {
  const { resource, titles } = argsOf<{ resource: string; titles: string[] }>(args);
  const actual = deckOf(context, resource).slides.map((s) => s.title);
  return verdict(sameTexts(actual, titles), `the slides are titled ${quote(actual)}`);
};

/** The slide titled `slide` has exactly these bullets (texts, in order), and the layout when given. */
const slideBullets: SuiteCheck = (context, args) => {
  const { resource, slide, bullets, layout } = argsOf<{ resource: string; slide: string; bullets: string[]; layout?: SlideLayout }>(args);
  const found = slideTitled(deckOf(context, resource), slide);
  if (!found) return verdict(false, `no slide is titled ${quote(slide)}`);
  const texts = found.bullets.map((b) => b.text);
  const layoutOk = layout === undefined || found.layout === layout;
  return verdict(sameTexts(texts, bullets) && layoutOk, `slide ${quote(slide)} has layout ${found.layout} and bullets ${quote(texts)}`);
};

/** The speaker notes of the slide titled `slide` contain each of `contains`. */
const slideNotes: SuiteCheck = (context, args) => {
  const { resource, slide, contains } = argsOf<{ resource: string; slide: string; contains: string[] }>(args);
  const found = slideTitled(deckOf(context, resource), slide);
  if (!found) return verdict(false, `no slide is titled ${quote(slide)}`);
  const missing = contains.filter((text) => !found.notes.includes(text));
  return verdict(missing.length === 0, missing.length === 0 ? `the notes of ${quote(slide)} say what they should` : `the notes of ${quote(slide)} lack ${quote(missing)}: ${quote(found.notes)}`);
};

/** The slide titled `slide` holds one table with these rows (and a header row when `header`). */
const slideTable: SuiteCheck = (context, args) => {
  const { resource, slide, rows, header } = argsOf<{ resource: string; slide: string; rows: string[][]; header?: boolean }>(args);
  const found = slideTitled(deckOf(context, resource), slide);
  if (!found) return verdict(false, `no slide is titled ${quote(slide)}`);
  const tables = (found.elements ?? []).flatMap((e) => (e.type === 'table' ? [e.table] : [])) as Table[];
  if (tables.length !== 1) return verdict(false, `slide ${quote(slide)} has ${tables.length} tables, not one`);
  const table = tables[0]!;
  const ok = sameRows(table.rows, rows) && (header === undefined || table.header === header);
  return verdict(ok, `the table on ${quote(slide)} has ${table.header ? 'a header row and ' : ''}rows ${quote(table.rows)}`);
};

/** The slide titled `slide` holds one chart of this type, labels and series. */
const slideChart: SuiteCheck = (context, args) => {
  const { resource, slide, type, labels, series } = argsOf<{ resource: string; slide: string } & Chart>(args);
  const found = slideTitled(deckOf(context, resource), slide);
  if (!found) return verdict(false, `no slide is titled ${quote(slide)}`);
  const charts = (found.elements ?? []).flatMap((e) => (e.type === 'chart' ? [e.chart] : [])) as Chart[];
  if (charts.length !== 1) return verdict(false, `slide ${quote(slide)} has ${charts.length} charts, not one`);
  const chart = charts[0]!;
  const ok =
    chart.type === type &&
    sameTexts(chart.labels, labels) &&
    chart.series.length === series.length &&
    chart.series.every((s, i) => s.name.trim() === series[i]!.name.trim() && jsonEqual(s.values, series[i]!.values));
  return verdict(ok, `the chart on ${quote(slide)} is a ${chart.type} chart of ${quote(chart.labels)}: ${chart.series.map((s) => `${s.name} ${quote(s.values)}`).join('; ')}`);
};

/** Every one of `texts` is a bullet of the deck exactly once, and they come in this order (slide by slide). */
const bulletsInOrder: SuiteCheck = (context, args) => {
  const { resource, texts } = argsOf<{ resource: string; texts: string[] }>(args);
  const all = deckOf(context, resource).slides.flatMap((s) => s.bullets.map((b) => b.text.trim()));
  const counts = texts.map((text) => all.filter((b) => b === text.trim()).length);
  const wrong = texts.filter((_, i) => counts[i] !== 1);
  if (wrong.length > 0) return verdict(false, `these bullets are not in the deck exactly once: ${quote(wrong)}`);
  const order = inOrder(all, texts);
  return verdict(order.ok, order.ok ? `all ${texts.length} bullets are kept, in order` : `the bullets are out of order from ${quote(order.missing)}`);
};

/** The slides with these ids are as they were when the task started (nobody asked to change them). */
const slidesUnchanged: SuiteCheck = async (context, args) => {
  const { resource, slides } = argsOf<{ resource: string; slides: string[] }>(args);
  const record = resourceOf(context, resource);
  const before = (await context.api.contentAt(record.id, 0)) as unknown as Presentation;
  const after = record.content as unknown as Presentation;
  const changed = slides.filter((id) => {
    const was = before.slides.find((s) => s.id === id);
    const now = after.slides.find((s) => s.id === id);
    return !was || !now || !jsonEqual(was as unknown as Json, now as unknown as Json);
  });
  return verdict(changed.length === 0, changed.length === 0 ? `slides ${slides.join(', ')} are unchanged` : `slides ${changed.join(', ')} changed or are gone`);
};

export const deckChecks = {
  slide_titles: slideTitles,
  slide_bullets: slideBullets,
  slide_notes: slideNotes,
  slide_table: slideTable,
  slide_chart: slideChart,
  bullets_in_order: bulletsInOrder,
  slides_unchanged: slidesUnchanged,
} satisfies Record<string, SuiteCheck>;
