import { CoworkError, type CheckVerdict, type Json, type ResourceRecord, type SuiteCheckContext } from '@cowork/host';
import type { DocumentContent } from '../document/content';
import type { Presentation, Slide } from '../presentation/content';

export const PRESENTATION = 'office.presentation';
export const DOCUMENT = 'office.document';

export function verdict(pass: boolean, detail: string): CheckVerdict {
  return { pass, detail };
}

/** A rubric item's arguments as the check expects them (the task files are the suite's own). */
export function argsOf<T>(args: Json | undefined): T {
  return (args ?? {}) as unknown as T;
}

/**
 * The task's resource named `name` as the run left it. A name the task does not have, or a resource
 * of another kind, is the task file's mistake: it throws (the trial is invalid, with the reason).
 */
export function resourceOf(context: SuiteCheckContext, name: string, kinds: readonly string[] = [PRESENTATION, DOCUMENT]): ResourceRecord {
  const resource = context.resources[name];
  if (!resource) throw new CoworkError('invalid_input', `the task has no resource named ${JSON.stringify(name)} (it has ${Object.keys(context.resources).join(', ')})`);
  if (!kinds.includes(resource.kind)) throw new CoworkError('invalid_input', `resource ${name} is a ${resource.kind}, not ${kinds.join(' or ')}`);
  return resource;
}

export function deckOf(context: SuiteCheckContext, name: string): Presentation {
  return resourceOf(context, name, [PRESENTATION]).content as unknown as Presentation;
}

export function documentOf(context: SuiteCheckContext, name: string): DocumentContent {
  return resourceOf(context, name, [DOCUMENT]).content as unknown as DocumentContent;
}

/** The first slide titled `title`, as a person names a slide. */
export function slideTitled(deck: Presentation, title: string): Slide | undefined {
  return deck.slides.find((slide) => slide.title === title);
}

export function quote(value: unknown): string {
  return JSON.stringify(value);
}

/** `a` and `b` as lists of strings, compared cell by cell with outer whitespace ignored. */
export function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((text, i) => text.trim() === b[i]!.trim());
}

export function sameRows(a: readonly (readonly string[])[], b: readonly (readonly string[])[]): boolean {
  return a.length === b.length && a.every((row, i) => sameTexts(row, b[i]!));
}

/** Whether `texts` occur in `items` in this order (each at a later position than the one before). */
export function inOrder(items: readonly string[], texts: readonly string[]): { ok: boolean; missing?: string } {
  let at = 0;
  for (const text of texts) {
    const found = items.findIndex((item, i) => i >= at && item.trim() === text.trim());
    if (found < 0) return { ok: false, missing: text };
    at = found + 1;
  }
  return { ok: true };
}
