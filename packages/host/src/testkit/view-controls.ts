// A kind's view controls as the page uses them, without a browser: the field or action a label
// names, and the op the page commits when a person saves a value there (the value put at the
// field's `field`) or presses the button (each input's value at its field), on the revision the view
// shows. A plugin's view tests drive their controls with it; its Chromium tests then need only check
// what the page itself adds. In the main test kit, not the page one: it loads no browser.
import type { Host } from '../host';
import type { FieldValue, ViewBlock } from '../plugins/views';
import type { Operator } from '../store/records';

/** Every block with the groups opened, in order. */
export function leaves(blocks: readonly ViewBlock[]): ViewBlock[] {
  return blocks.flatMap((block) => (block.type === 'group' ? block.blocks : [block]));
}

/** Every name a control carries: fields, actions, their inputs and editable texts. */
export function controlLabels(blocks: readonly ViewBlock[]): string[] {
  return leaves(blocks).flatMap((block) => {
    if (block.type === 'field' || block.type === 'editable') return [block.label];
    if (block.type === 'action') return [block.label, ...(block.inputs ?? []).map((input) => input.label)];
    return [];
  });
}

/** Every field's stable `key` (fields without one are left out), in order: a view test checks they are unique. */
export function fieldKeys(blocks: readonly ViewBlock[]): string[] {
  return leaves(blocks).flatMap((block) => (block.type === 'field' && block.key !== undefined ? [block.key] : []));
}

/**
 * Saves `value` in the field labelled `label` (or presses the action, with `value` as its inputs by
 * field) of the resource's current view, as `operator` (default `human:ann`), the way the page does.
 * Resolves to the commit's revision; a refused op rejects with the host's error.
 */
export async function useControl(
  host: Pick<Host, 'views' | 'resources'>,
  resourceId: string,
  label: string,
  value?: FieldValue | Record<string, FieldValue>,
  operator: Operator = 'human:ann',
): Promise<number> {
  const view = await host.views.view(resourceId);
  const blocks = view.blocks ?? [];
  const control = leaves(blocks).find((block) => (block.type === 'field' || block.type === 'action') && block.label === label);
  let op: Record<string, unknown>;
  if (control?.type === 'field') op = { ...control.op, [control.field]: value as FieldValue };
  else if (control?.type === 'action') op = { ...control.op, ...(value as Record<string, FieldValue> | undefined) };
  else throw new Error(`no field or action labelled ${JSON.stringify(label)}; the view has ${controlLabels(blocks).join(', ')}`);
  const { revision } = await host.resources.commit(resourceId, { baseRevision: view.revision, op, operator });
  return revision;
}
