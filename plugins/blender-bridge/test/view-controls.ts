// A view's controls as the page uses them: the field or action a label names, and the op the page
// commits when a person saves a value there (the value put at the field's `field`) or presses the
// button (each input's value at its field), on the revision the view shows.
import type { FieldValue, ViewBlock } from '@cowork/host';
import type { Host } from '@cowork/host/embed';

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

/**
 * Saves `value` in the field labelled `label` (or presses the action, with `inputs` by field) of the
 * resource's current view, as `human:ann`, the way the page does. Resolves to the commit's revision.
 */
export async function useControl(host: Pick<Host, 'views' | 'resources'>, resourceId: string, label: string, value?: FieldValue | Record<string, FieldValue>): Promise<number> {
  const view = await host.views.view(resourceId);
  const blocks = view.blocks ?? [];
  const control = leaves(blocks).find((block) => (block.type === 'field' || block.type === 'action') && block.label === label);
  let op: Record<string, unknown>;
  if (control?.type === 'field') op = { ...control.op, [control.field]: value as FieldValue };
  else if (control?.type === 'action') op = { ...control.op, ...(value as Record<string, FieldValue> | undefined) };
  else throw new Error(`no field or action labelled ${JSON.stringify(label)}; the view has ${controlLabels(blocks).join(', ')}`);
  const { revision } = await host.resources.commit(resourceId, { baseRevision: view.revision, op, operator: 'human:ann' });
  return revision;
}
