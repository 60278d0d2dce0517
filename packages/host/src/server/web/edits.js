// Edits in progress of a view's `editable` and `field` blocks, and what was last said about each
// control, by edit key (a field's stable `key`, else the label: blocks.js `editKey`). An edit
// remembers the revision and the value it started from and is kept across live updates; saving
// commits the block's op with the person's value on that revision. If others committed meanwhile
// and did not touch this value, the save is retried on top at once; if they changed it too, the
// person's value stays and they are told, and the next save goes on top of what they now see.
// Nothing anyone saved is overwritten unseen.
import { api, ApiError, commitOp, describe, operator, path } from './api.js';
import { editKey, findBlock, shownValue } from './blocks.js';
import { say } from './dom.js';

export class Edits {
  /** `deps.revision()`: the revision the page shows; `deps.sync()`: bring the page up to date. */
  constructor(deps) {
    this.deps = deps;
    this.pending = new Map(); // resourceId + edit key -> {base, original, raw}
    this.notes = new Map(); // resourceId + edit key -> {text, error}
  }

  /**
   * The edits of one resource, as the view's blocks use them, each by its block's `editKey`. `raw`
   * values are what the control holds (text).
   */
  of(resourceId) {
    const key = (edit) => `${resourceId} ${edit}`;
    const tell = (edit, status, text, error = false) => {
      this.notes.set(key(edit), { text, error });
      say(status, text, error);
    };
    return {
      pending: (edit) => this.pending.get(key(edit))?.raw,
      note: (edit) => this.notes.get(key(edit)),
      /** Records an edit of the value shown (`shown`, as raw text); the first one fixes its base. */
      change: (edit, raw, shown) => {
        this.notes.delete(key(edit));
        const started = this.pending.get(key(edit)) ?? { base: this.deps.revision(), original: shown };
        if (raw === started.original) this.pending.delete(key(edit));
        else this.pending.set(key(edit), { ...started, raw });
      },
      /** Commits `value` (already checked) for `block`, whose shown value is `shown` (raw). */
      save: async (block, raw, value, status) => {
        const id = editKey(block);
        const edit = this.pending.get(key(id)) ?? { base: this.deps.revision(), original: shown(block) };
        const op = { ...block.op, [block.field]: value };
        say(status, 'Saving…');
        try {
          let result;
          try {
            result = await commitOp(resourceId, edit.base, op);
          } catch (error) {
            if (!(error instanceof ApiError && error.code === 'revision_conflict')) throw error;
            const current = error.details.currentRevision;
            const now = await valueAt(resourceId, current, id);
            if (now !== edit.original) {
              // The kept candidate is this very edit, still in the control: close it rather than leave it for review.
              void api('POST', path('candidates', error.details.candidateId, 'reject'), { operator: operator() }).catch(() => undefined);
              this.pending.set(key(id), { raw, base: current, original: now });
              tell(id, status, `Someone else changed ${block.label} (now revision ${current}); your value is kept here. Look at theirs in the history, then save again to put yours on top.`, true);
              return;
            }
            // The conflict kept the save as a candidate: accepting it on the new revision is the retry.
            result = await api('POST', path('candidates', error.details.candidateId, 'accept'), { operator: operator(), baseRevision: current });
          }
          this.pending.delete(key(id));
          tell(id, status, `Saved ${block.label} as revision ${result.revision}.`);
          await this.deps.sync();
        } catch (error) {
          tell(id, status, `Not saved: ${describe(error)}`, true);
        }
      },
      /** Says something about a control (kept across re-renders). */
      tell,
      /** A value the page refused before sending anything. */
      refuse: (edit, status, text) => tell(edit, status, text, true),
    };
  }
}

/** What a block shows, as the raw text its control holds. */
function shown(block) {
  return block.type === 'editable' ? block.text : shownValue(block);
}

/** The raw value of a view's block by edit key at a revision (undefined when it has none by that key). */
async function valueAt(resourceId, revision, edit) {
  const { blocks } = await api('GET', `${path('resources', resourceId)}/view?revision=${revision}`);
  const block = findBlock(blocks || [], edit);
  return block && (block.type === 'editable' || block.type === 'field') ? shown(block) : undefined;
}
